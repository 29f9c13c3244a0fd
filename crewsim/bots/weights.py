"""The heuristic crew's weights: every number its decisions weigh cards, tricks and tasks by,
named for what it rewards or penalises, grouped by decision.  The bots modules import them;
numba reads module-level numbers as compile-time constants, so a name costs nothing.

A weight keeps the type it was written with (``30.0`` a float, ``20`` an int): the scores
are summed in the same order either way.  Not here: card, suit and rank numbers, seat and
trick counts, 0/1/-1 markers and the like, which are the rules' and not the crew's choice;
the bot parameters a run may set (``registry.py``)."""

# ---------------------------------------------------------------------------------------
# The scale
BIG = 100.0  # a task card won or lost: the unit the other weights are measured against
FAIL = 2  # times BIG: a move that fails a task (or breaks the order of the task tokens)
HOT = 0.5  # times BIG: a seat wants (or must not take) the trick badly from this want on
FORCED = 50.0  # per seat that must not win the trick and may be forced to top my card
KEEP_LAST = 40.0  # playing the card kept for the last trick (mission 48) before it
CARD_ECONOMY = 0.15  # per value of the card played: keep the high cards, spend the low ones
SHED_HIGH = 0.6  # per value of the card shed by a hand that must win no more tricks
SHED_SUB = 4.0  # ... and more for a submarine
KEEP_RUFF = 40.0  # a trump spent that my task card, held elsewhere and unbeatable, needs

# A follower forced to overtake (``view.forced_chance``): the chance it holds only cards above
FORCED_ALL_ABOVE = 0.9  # all its possible cards of the colour lie above mine
FORCED_ONE_CARD = 0.35  # the share of followers holding a single card of the colour (chance r)
FORCED_TWO_CARDS = 0.65  # the share holding two (chance r squared)

# ---------------------------------------------------------------------------------------
# Leading (``lead.py``): times BIG where a task card is at stake, else points
LEAD_SURE_WIN = 1.0  # a lead nobody can top or ruff
ROUTE_SHARE = 0.5  # a lead others may top: the share of the steered seat's want (and the
# average other's) in its value
ROUTE_SHOWN_TOP = 1.5  # times the want of a seat that has shown a card nothing else tops
ROUTE_SHOWN_NEXT = 1.2  # ... of one whose shown card one other card tops
OTHERS_WANT_SHARE = 0.5  # times the others' average want: what a lead others may top is worth
MUST_WIN_WANT = 0.2  # times BIG: a Deep Sea trick I want this much I lead my likeliest winner to
OWN_TASK_URGENCY = 30.0  # my own task card led, times the share of tricks played
OWN_TASK_TOPPED = 0.5  # times BIG and the risk: my own task card led and topped
PULL_FIRST = 50.0  # times the risk: my task card led while my top card of its colour could pull
SUB_RUFF_LEAD = 0.5  # times BIG: another's task card led for its owner, void, to ruff
OTHER_TASK_SURE = 0.8  # times BIG: another's task card led that its owner surely tops
OTHER_TASK_RUFF = 0.5  # times BIG: ... that its owner, void and holding trumps, may ruff
OTHER_TASK_LOST = 1.5  # times BIG: ... that its owner may fail to take
MY_RUFF_COLOUR = 30.0  # leading the colour of my task card I am to ruff (empty it instead)
DRAW_FOR_MY_TASK = 0.7  # times BIG: a card above my task card, held elsewhere, led to draw it
DRAW_TOPPED = 0.25  # times BIG and the risk: ... and someone is forced above it
UNDER_MY_TASK = 5.0  # a card below my task card, held elsewhere, led: it would not take it
PULL_COLOUR = 8.0  # leading the colour of my task card in hand: pull the others' cards first
KEPT_TASK_COLOUR = 30.0  # leading the colour of another's task card I hold (I must keep it)
UNDER_OTHER_TASK = 12.0  # leading under another's task card held by a third seat
OVER_OTHER_TASK = 4.0  # ... and above it
OMEGA_COLOUR = 30.0  # leading the omega card's colour: its holder may have to follow with it
CLEAR_FOR_WITH = 12.0  # a lead that clears a card above the one another must win a trick with
GUARD_TRUMP = 2.0  # a trump led while trumps threaten my own low task card
SPARE_TRUMP = 3.0  # a trump led otherwise (keep them)
CASH_SUB = 30.0  # leading a submarine nobody tops, for the pair of 'as many as the captain'
OTHER_RUFF = 15.0  # leading trumps while another owner may need its own to ruff with
ENTRY_GAIN = 40.0  # leading a sure winner when the holder of my task card may be void in it
ENTRY_RUFFABLE = 0.5  # ... its share when the others may still ruff it

# ---------------------------------------------------------------------------------------
# Following and discarding (``follow.py``)
LATE_RISK = 0.75  # my task card to another owner: the risk's weight falls by this share over
# the game (Planet Nine, 4-5 players or the dummy: docs/tuning.md)
SPEND_TRUMP = 2.0  # a trump played
SHED_OVER_OTHERS = 4.0  # per other owner's open task card below the card shed (minus above)
KEEP_OVER_MINE = 3.0  # per own open task card below the card played: keep it to pull mine
TASK_MAY_COME = 25.0  # the owner's want of a trick its task card may still fall into
SHED_TRUMPS = 8.0  # a trump shed by a hand that should not hold on to them
STRIP = 5.0  # a discard of a card above another owner's task card known in its own hand
GUARD = 6.0  # a discard of a card under another owner's task card I hold (2-3 players)
VOID_SHED = 5.0  # discarding a card of the colour I must be void in to ruff my task card

# ---------------------------------------------------------------------------------------
# Cards that may not lead (``lead_bans.py``)
BAN_SHED = 20.0  # following with a card that may not lead: it leaves only this way
BAN_SPARE = 4.0  # per card I may lead left over those I may not, when I take the trick
BAN_VOID_SHED = 15.0  # leading a colour a seat with banned cards lacks: it sheds one on it
BAN_EMPTY_COLOUR = 10.0  # leading the last of a colour, to shed my banned cards on it later
BAN_STRANDED = 40.0  # my last card I may lead, led: taking the trick would strand me
BAN_STRANDED_VALUE = 8.0  # ... per value of that card (go low)

# ---------------------------------------------------------------------------------------
# Who should take the trick (``want.py``, Planet Nine objectives)
CASH_WANT = 30.0  # the lead for an owner whose own task card has become the top of its colour
BALANCE_CATCH_UP = 0.6  # times BIG: balanced tricks, the trick to the only seat at the fewest
BALANCE_BEHIND = 20.0  # ... to a seat at the fewest among several
BALANCE_AHEAD = 2.0  # ... less per trick a seat holds over the fewest
ONE_TRICK_WANT = 5.0  # the member to win exactly one trick, before it has
ONE_TRICK_LATE = 10.0  # ... more, times the share of tricks played
RANK_NEEDY = 30.0  # a rank card kept balanced going to a seat with the fewest of them
PINK_TARGET_WANT = 15.0  # the seat to win every pink, while pinks are out
FIRST_WINNER_WANT = 50.0  # the first trick's winner staying ahead (Deep Sea 23)

# ---------------------------------------------------------------------------------------
# Planet Nine special objectives (``objectives.py``, ``lead.py``)
ONES_SHOWN = 0.3  # missions 9 / 26: the fewest cards of a colour whose 1 is worth showing,
# per trick of the game
ONES_CLEAR = 40.0  # the want of the holder of a 1 whose colour the others no longer hold
ONES_KEEP_GUARD = 5.0  # discarding the colour of my own 1 (the length guards it)
ONES_SHED = 20.0  # a discard of the colour of a 1 another seat has shown (5 for another's 1)
ONES_SHED_OTHER = 5.0  # ... of the colour of another seat's 1 not shown
ONES_SHED_VALUE = 2.0  # ... more per value of the card shed
ONES_STRIP = 10.0  # leading the colour of a 1 another seat has shown (when short in it)
ONES_STRIP_MAX = 2  # the most cards of that colour I may hold to lead it
ONE_WINS = 60.0  # a 1 taking the trick (led into colours the others lack)
ONE_LOST = 40.0  # a 1 that does not win its trick: lost for good
STRIP_MY_ONE = 8.0  # leading the colour of my 1 when my other cards of it outlast theirs
STRIP_MY_ONE_SHORT = 10.0  # ... and when they do not
FORCE_OTHER_ONE = 15.0  # leading a colour whose 1, held by a likely short seat, must follow
FORCE_HOLDER_SHORT = 30.0  # leading where a card that must not win may have to follow
# (the colour short in the other hands)
FORCE_HOLDER = 8.0  # ... the colour not short
STAY_AHEAD = 40.0  # times the risk: the first trick's winner leading a card others may top
TRUMP_TRICK = 40.0  # a submarine trick the objective allows (in order, or nobody else has one)
LEAD_FORBIDDEN_RANK = 30.0  # leading a card of the rank that must win no trick
FORBIDDEN_RANK_GONE = 30.0  # a card of the forbidden rank gone without winning
PINK_LEAD = 20.0  # leading pink: the pink target's sure winner, else never
PINK_TO_TARGET = 25.0  # a pink into a trick the pink target takes
PINK_TO_TARGET_VALUE = 4.0  # ... more per value of the pink
RANK_NEEDY_FOLLOW = 25.0  # a rank card played into a trick of a seat with the fewest of them
RANK_TO_OTHER = 10.0  # ... of another seat than mine
RANK_TOPPED_PAST = 40.0  # a rank card led that a seat with no room for it may top
RANK_LED = 10.0  # a rank card led that seats with room for it may top
TRAIL_SHED = 0.4  # per value: the others shed what could win later (Deep Sea 23)
TRAIL_SHED_SUB = 3.0  # ... more for a submarine
OMEGA_HOLDER_SHED = 0.6  # per value: the holder of the card due last sheds its winners
OMEGA_HOLDER_SHED_SUB = 6.0  # ... more for a submarine

# ---------------------------------------------------------------------------------------
# Communication (``comm.py``): the best worth over COMM_MIN is shown
COMM_MIN = 4.5  # the least a card must be worth to be communicated
COMM_TOP_TOPPED = 20  # a colour's top card to show: per card above it (fewest first)
COMM_OTHERS_TASK = 6.0  # showing another owner's task card I hold
COMM_ONLY_CARD = 1.0  # ... more when it is my only card of the colour
COMM_ALL_ABOVE = 5.5  # warning: all my cards of the colour lie above another's task card
COMM_CAN_DUCK = 5.1  # my lowest card lies under another's task card (I can duck it)
COMM_HOLD_OWN = 5.2  # I hold my own task card and can duck
COMM_OVER_MY_TASK = 5.0  # my highest card tops my own task card held elsewhere
COMM_OVER_VALUE = 0.2  # ... more per value of that card

# ---------------------------------------------------------------------------------------
# Set-up, Planet Nine (``hand.py``, ``setup.py``): drafting tasks, passing, designating
TASK_HIGHER = 1.5  # a task card in hand: per card of its colour I hold above it
TASK_TRUMP = 0.5  # per trump in hand
TASK_TOP_OVER = 2.0  # a task card held elsewhere, my top card of its colour above it
TASK_LENGTH = 0.3  # ... per card of the colour
TASK_COLOUR = 1.0  # a task card held elsewhere, my top card of its colour below it
TASK_TOP_VALUE = 0.3  # ... per value of that top card
TASK_VOID = 1.0  # a task card of a colour I lack (to ruff)
TASK_VOID_TRUMP = 2.0  # ... per trump in hand
POWER_TRUMP = 2.0  # a hand's strength: per trump
POWER_NINE = 1.0  # ... per 9
POWER_EIGHT = 0.5  # ... per 8
WEAK_HAND = 1.0  # the most strength of a hand that answers "good" to win no tricks
ONE_TRICK_POWER = 1.0  # the least colour strength to answer "good" to exactly one trick
FIRST_LAST_POWER = 2.0  # ... to the first and the last trick only
PASS_TASK_COLOUR = 10.0  # keep a card of the colour of my own task card (the least is passed)
PASS_TASK_CARD = 20.0  # keep a task card
DESIG_SURE_TRICK = 10.0  # per sure winner, plus strength: the member to take the first tricks
DESIG_LAST_SURE = 100.0  # a sure winner to keep, minus strength: the member for the last trick
HANDOVER_MARGIN = 2.0  # a task card handed over scores this much over the handover gain

# ---------------------------------------------------------------------------------------
# Deep Sea: who should take the trick, per task family (``deep_sea.py``)
DS_COLLECT_SHORT = 8.0  # a collection that cannot gain from this trick but is short of cards
DS_WITH_WANT = 40.0  # the owner taking the trick with its card to win with
DS_FIT_STARTED = 40.0  # a trick of fitting cards that still fits, begun
DS_FIT_OPEN = 10.0  # ... not begun
DS_EQUAL_LEVEL = 40.0  # as many of two colours: the trick level
DS_EQUAL_OPEN = 10.0  # ... still able to get level
DS_RUN_GOING = 40.0  # a streak going
DS_RUN_STREAK = 20.0  # ... more per trick of it
DS_RUN_START = 10.0  # a streak to start
DS_AVOID = 5.0  # a trick its owner had better not take
DS_COUNT_SHORT = 20.0  # exactly n tricks, fewer won
DS_WIN_WANT = 8.0  # a trick of the kind to win, anywhere

# Deep Sea: cards (``deep_sea_cards.py``)
OWN_BAD = 40.0  # the owner's own card it may not win, taking a trick a later seat may top
BAD_AHEAD = 20.0  # a card its owner may not win, into a trick that owner is still to play to
BAD_LEAD = 20.0  # leading the colour of a 9 another seat may not win and may hold
NAMED_RISK = 20.0  # leading the colour of a card named for the last trick that another holds
DS_SUB_COLOUR = 15.0  # a card of the colour of my card to win with a submarine, to another
DS_LAST_CARD_EARLY = 3  # times BIG: the card that must lie in the last trick, played before it
DS_KEEPER = 40.0  # the owner playing its keeper before the last trick
DS_LAST_LATE = 3.0  # the others' spending counts this many times in the last three tricks
DS_LAST_SUB = 6.0  # the others spend a submarine before the last trick
DS_LAST_VALUE = 0.3  # ... per value of a colour card
DS_DRAW_KEEPER = 30.0  # a submarine lead that draws the owner's keeper
DS_OVER_TOLD = 10.0  # a card above the owner's shown card for the last trick, gone
DS_LAST_UNDER = 15.0  # my last card under it, gone (keep one to lead or follow)

# Deep Sea: trick counts (``deep_sea_counts.py``)
URGENT = 100.0  # a seat that must still win a trick, times the urgency (``fewer_want``)
FEWER_SHED = 25.0  # fewer tricks than each other seat: the owner loses the trick
FEWER_SHED_URGENT = 25.0  # ... more times the urgency
FEWER_TAKE = 15.0  # a seat not ahead of the owner takes it
FEWER_TAKE_BEHIND = 5.0  # ... more per trick it is behind
FEWER_TAKE_AHEAD = 10.0  # a seat one ahead takes it
FEWER_GIVE_UP = 25.0  # times the urgency: seats further ahead give up their winners
MORE_EACH_WANT = 25.0  # more tricks than each other seat: the owner takes it
MORE_EACH_OTHERS = 15.0  # ... and a seat catching up does not
MORE_ALL_WANT = 40.0  # more tricks than all the others together
VS_CAPT_WANT = 20.0  # more (fewer) tricks than the captain: to the owner (the captain)
AS_CAPT_CATCH_UP = 25.0  # as many as the captain: the one behind takes it
AS_CAPT_AHEAD = 10.0  # ... and the one ahead does not
AS_CAPT_LEVEL = 15.0  # ... level: neither takes it
DS_SHED_BAD = 30.0  # shedding a card of the kind its owner may not win
SUB4_ENDS_RUN = 60.0  # submarine 4 on the last trick of the captain's exact streak
SUB4_EARLY = 30.0  # ... before it

# Deep Sea: won with a card, tricks of fitting cards, equal colours (``deep_sea_tricks.py``)
WITH_TAKE = 50.0  # the owner taking the trick with its card, the cards to capture in it
WITH_TAKE_EARLY = 15.0  # ... the cards to capture still to come
WITH_TOPPED = 20.0  # times the risk that a later card tops it
WITH_KEEP = 10.0  # the owner's card to win with played otherwise
WITH_CAPTURE = 50.0  # a card to capture dropped into the owner's trick won with its card
WITH_DROP_AHEAD = 25.0  # ... into a trick the owner plays to after me
WITH_CLEAR = 10.0  # discarding a card above the one another seat must win a trick with
LEAD_TO = 20.0  # leading so that the seat with a card to win a trick with takes the lead
ENTRY = 20.0  # the owner of that card taking a trick, its card being safe to lead next
FIT_TAKE = 30.0  # a fitting card into the owner's fitting trick
FIT_SPOIL = 30.0  # a card that spoils it
FIT_KEEP = 8.0  # playing a card a trick of fitting cards will be short of into another trick
EQUAL_TAKE = 30.0  # equal colours: the owner's trick level
EQUAL_SPOIL = 30.0  # ... beyond levelling with the cards to come

# Deep Sea: collections (``collect.py``)
WANT = 30.0  # per card still missing
LOST = 300.0  # the card can no longer be met (below any value it can still reach)
TIGHT = 10.0  # per card of slack below two: the cards that could still come run short
TIGHT_SLACK = 2  # ... the slack from which the cards are not short
EXCESS = 2.0  # per card that would overshoot an exact count if the owner took it
SUB_EXCESS = 30.0  # the same for submarines when two or more are asked for (see _exact)
OWN = 8.0  # ... and more for such a card in the owner's own hand (known to the owner only)

# ---------------------------------------------------------------------------------------
# Deep Sea set-up (``deep_sea_setup.py``): drafting tasks, answering, predicting
DS_TASK_VALUE = 1.0  # times a task card's difficulty, its cost
PASS_MARGIN = 1.5  # an average hand's task score above minus the card's value
TOP_GAIN = 1.0  # per high card (of the colour, or a submarine) over the average hand
WITH_COVER = 4.0  # per card of its own above the card a hand must win with, over the average
NO_WAY = 100.0  # a task score's penalty for a task this hand can never complete
ONLY_ME = 10.0  # its bonus for a task that no other hand can complete (no pass then)
DS_WIN_POWER = 0.6  # a task to win cards: per strength of the hand
DS_WIN_CARDS = 0.8  # ... per card of those to win (or to win with) in hand
DS_AVOID_POWER = 0.6  # a task to avoid tricks: per strength under DS_AVOID_PAR
DS_AVOID_PAR = 4.0  # ... the strength of a hand indifferent to it
DS_SUBS_MANY = 2.0  # exactly n (three or more) submarines: any hand able to
DS_SUBS_MATCH = 2.0  # ... fewer: a hand holding n of them (one less per submarine off n)
DS_SHED_COUNT = 0.5  # exactly n of some colours: per card in hand over the average hand
DS_ACCEPT = 1.5  # per task: how far below 0 a hand's score may fall for it to take them all
DS_TAKEN_COST = 1.5  # per task a seat already holds: a task passed to it costs this
PREDICT_POWER = 0.6  # a predicted trick count: per strength of the hand
PREDICT_SECRET = 1.2  # ... more per trick a seat over the free share (a secret count)
PREDICT_PUBLIC = 0.7  # ... (a public count)
PREDICT_FREE_SHARE = 2.5  # tricks a seat up to which none fall to a hand unasked
