"""Integer codes shared by the kernel and the Python boundary that fills its input arrays.

The kernel sees a mission as one int64 vector (``MP_*`` offsets) and a bot as one float64
vector (``BP_*``); everything else is converted here, at the edge, never in the game loop.
"""

DS_COLS = 29  # columns of the Deep Sea task-card table (crewsim.kernel.deep_sea_tables)

# ---- mission parameter vector
MP_PLAYERS = 0
MP_NTASKS = 1
MP_COMM = 2  # COMM_* code
MP_COMM_FROM = 3  # first trick (1-based) before which communication is allowed
MP_SILENCED = 4
MP_HANDOVER = 5  # 5-player task hand-over allowed
MP_DRAW_AFTER = 6  # trick after which everyone draws from the right neighbour (0 = never)
MP_ALLOC = 7  # ALLOC_* code
MP_OMEGA_LAST = 8
MP_DISTRESS = 9  # DISTRESS_* code
MP_NOBJ = 10
MP_OBJ = 11  # 3 objectives x (kind, a, b)
MP_TOKENS = 20  # 12 token codes, laid on tasks in draw order
MP_PRED = 32  # 12 predecessor masks, per task in draw order
MP_GAME = 44  # 0 Planet Nine, 1 Deep Sea
MP_DIFFICULTY = 45  # Deep Sea: sum of task values to draw
MP_TERRAIN = 46  # Deep Sea: communication mode drawn every game (unfamiliar terrain)
MP_NFIXED = 47  # Deep Sea: fixed task cards instead of a draw (mission 32)
MP_FIXED = 48  # up to 8 fixed task-card rows (card number - 1)
MP_COMM_IF_PASSED = 56  # Deep Sea 10/13: passed tasks -> communicate before trick 1 only
MP_FIXED_OWNER = 57  # 8 seats for the fixed cards, counted from the captain (-1: selection)
MP_TOKEN_ADJUST = 65  # Planet Nine 23 / 40: the crew may swap two tokens / move one (tokens.py)
MP_SIZE = 66
MAX_FIXED = 8
MAX_TASKS = 12
MAX_DS = 16  # Deep Sea task cards in one game
# ``ds_open``'s rows, per decision (``bots.deep_sea.deep_sea_scores``): the open task slots
# (bits), all, mine, and those of each kind a per-card score loops over, which then skips
# the other slots' table reads
TK_ALL, TK_MINE, TK_BAD, TK_LAST, TK_WITH, TK_FIT, TK_COLLECT, TK_SUB, TK_EQUAL = range(9)
TK_NEVER = 9  # every slot, open or done, whose card bans leading some cards (``lead_bans``)
MAX_OBJ = 3

COMM_NORMAL, COMM_DEAD_ZONE, COMM_RAPTURE, COMM_NONE = 0, 1, 2, 3
COMM_CODES = {
    "normal": COMM_NORMAL,
    "dead_zone": COMM_DEAD_ZONE,
    "rapture": COMM_RAPTURE,
    "none": COMM_NONE,
}

ALLOC_DRAFT, ALLOC_DISTRIBUTE, ALLOC_ONE_MEMBER = 0, 1, 2
ALLOC_CODES = {
    "draft": ALLOC_DRAFT,
    "commander_distributes": ALLOC_DISTRIBUTE,
    "one_member": ALLOC_ONE_MEMBER,
}
DS_ALLOC_CODES = {
    "draft": ALLOC_DRAFT,
    "one_member": ALLOC_ONE_MEMBER,
    "captain_all_or_pass": 3,
    "volunteer_1": 4,
    "volunteer_2": 5,
    "free_selection": 6,
    "captain_hardest_first": 7,
    "captain_skips": 8,
}
# the Deep Sea allocations beyond ALLOC_DRAFT and ALLOC_ONE_MEMBER (same codes in both dicts)
ALLOC_CAPTAIN_ALL_OR_PASS = DS_ALLOC_CODES["captain_all_or_pass"]
ALLOC_VOLUNTEER_1 = DS_ALLOC_CODES["volunteer_1"]
ALLOC_VOLUNTEER_2 = DS_ALLOC_CODES["volunteer_2"]
ALLOC_FREE_SELECTION = DS_ALLOC_CODES["free_selection"]
ALLOC_CAPTAIN_HARDEST_FIRST = DS_ALLOC_CODES["captain_hardest_first"]
ALLOC_CAPTAIN_SKIPS = DS_ALLOC_CODES["captain_skips"]

DISTRESS_NEVER, DISTRESS_AUTO, DISTRESS_ALWAYS = 0, 1, 2
DISTRESS_CODES = {"never": DISTRESS_NEVER, "auto": DISTRESS_AUTO, "always": DISTRESS_ALWAYS}

OBJ_NONE = 0
OBJ_CODES = {
    "player_wins_no_tricks": 1,
    "colour_ones_win": 2,
    "each_trump_wins": 3,
    "no_win_with_rank": 4,
    "balanced_tricks": 5,
    "player_exactly_one_trick": 6,
    "player_first_and_last_only": 7,
    "left_of_pink9_wins_pink": 8,
    "role_split": 9,
    "balance_rank_wins": 10,
    "no_lead_suits": 11,
    "first_trick_winner_most": 12,
    "card_last_in_final_trick": 13,
}
# the kinds by name (numba reads these module-level ints as compile-time constants)
OBJ_NO_TRICKS = OBJ_CODES["player_wins_no_tricks"]  # d1 wins no trick
OBJ_ONES = OBJ_CODES["colour_ones_win"]  # a = count of colour ones won by their seats
OBJ_TRUMPS = OBJ_CODES["each_trump_wins"]  # a = ordered
OBJ_NO_RANK = OBJ_CODES["no_win_with_rank"]  # a = rank
OBJ_BALANCED = OBJ_CODES["balanced_tricks"]  # a = max_lead, b = commander_first_last
OBJ_ONE_TRICK = OBJ_CODES["player_exactly_one_trick"]  # d1, a = no_trump_win
OBJ_FIRST_LAST = OBJ_CODES["player_first_and_last_only"]  # d1, a = no_trump_win
OBJ_PINK = OBJ_CODES["left_of_pink9_wins_pink"]
OBJ_ROLES = OBJ_CODES["role_split"]  # d1 = A, d2 = B, a = first, b = last
OBJ_RANK = OBJ_CODES["balance_rank_wins"]  # a = rank, b = max_difference
OBJ_NO_LEAD = OBJ_CODES["no_lead_suits"]  # a = suit bitmask
OBJ_FIRST_MOST = OBJ_CODES["first_trick_winner_most"]
OBJ_CARD_LAST = OBJ_CODES["card_last_in_final_trick"]  # a = card
OBJ_NAMES = {v: k for k, v in OBJ_CODES.items()}
# Parameters (a, b) of each objective kind, by name, in order.
OBJ_PARAMS = {
    "colour_ones_win": ("count",),
    "each_trump_wins": ("ordered",),
    "no_win_with_rank": ("rank",),
    "balanced_tricks": ("max_lead", "commander_first_last"),
    "player_exactly_one_trick": ("no_trump_win",),
    "player_first_and_last_only": ("no_trump_win",),
    "role_split": ("first", "last"),
    "balance_rank_wins": ("rank", "max_difference"),
    "no_lead_suits": ("suits",),
    "card_last_in_final_trick": ("card",),
}

TOKEN_CODES = {
    None: 0,
    "1": 1,
    "2": 2,
    "3": 3,
    "4": 4,
    "5": 5,
    ">": 11,
    ">>": 12,
    ">>>": 13,
    ">>>>": 14,
    "omega": 20,
}
TOKEN_NAMES = {v: k for k, v in TOKEN_CODES.items()}
OMEGA_CODE = TOKEN_CODES["omega"]
TOKEN_ADJUST_CODES = {"none": 0, "swap": 1, "move": 2}  # MP_TOKEN_ADJUST

# ---- outcome codes
FAIL_NONE, FAIL_WRONG_WINNER, FAIL_ORDER, FAIL_NOT_DONE, FAIL_OBJECTIVE = 0, 1, 2, 3, 4
FAIL_CONDITION = 5  # a Deep Sea task card's condition failed (detail: card number)
FAIL_NAMES = {
    FAIL_NONE: "",
    FAIL_WRONG_WINNER: "task won by the wrong player",
    FAIL_ORDER: "task order broken",
    FAIL_NOT_DONE: "task not completed",
    FAIL_OBJECTIVE: "objective failed",
    FAIL_CONDITION: "task condition failed",
}
# the referee's outcome reasons (``rules.game.Outcome.reason``) by kernel code
FAIL_REASONS = {
    FAIL_NONE: "",
    FAIL_WRONG_WINNER: "wrong_winner",
    FAIL_ORDER: "order",
    FAIL_NOT_DONE: "not_done",
    FAIL_OBJECTIVE: "objective",
    FAIL_CONDITION: "condition",
}

# ---- bot parameter vector
BP_KIND = 0  # 0 random, 1 heuristic, 2 search, 3 pimc
BP_COMM = 1  # communicate at all (0/1)
BP_DISTRESS_THRESHOLD = 2  # crew's summed poorness needed to call the distress signal
BP_YES_THRESHOLD = 3  # task score at which a player answers "yes" to the commander
BP_HANDOVER_GAIN = 4  # score gain needed for a 5-player task hand-over
BP_POOR_SCORE = 5  # task score below which an owner judges a task poor (distress vote)
BP_TOKEN_GAIN = 6  # ranks a token swap or move must gain (Planet Nine 23 / 40)
BP_ENDGAME = 7  # tricks left when members start checking every line (bots.endgame)
BP_BLIND_YES = 8  # mean task score over unseen task cards at which a member answers "yes"
BP_SEARCH_MIN = 9  # search crew: worlds sampled before the sequential test may stop
BP_SEARCH_MAX = 10  # search crew: at most this many worlds per decision
BP_SEARCH_Z = 11  # search crew: the best card must lead the next by this many standard errors
BP_SEARCH_CREDIT = 12  # search crew: a lost rollout's value at most (by the progress it made)
BP_SEARCH_COMM = 13  # search crew: 1 = communications chosen by search too (0: the heuristic's)
BP_PIMC_WORLDS = 14  # pimc crew: worlds sampled per card play with a choice
BP_PIMC_BUDGET = 15  # pimc crew: the DFS's card plays per world and card before it gives up
BP_SEARCH_SETUP = 16  # search crew: 1 = the set-up's choices (draft, answers) by search too
BP_SEARCH_DISTRESS = 17  # search crew: 1 = the distress signal's passes by search too
BP_SEARCH_EXACT = 18  # search crew: a rollout's last tricks (this many) solved exactly
BP_SIZE = 19

# ---- recording (cross-check) layout per game
REC_PLAYS = 65  # 13 tricks x 5 seats
REC_COMMS = 8  # up to 8 communications: seat, card, claim, trick
REC_DS = 3 * 16 + 3  # Deep Sea: task rows, owners, predictions; count, comm mode, comm until


# ---- per-game scalar state vector (kernel scratch), shared by the engine and the policies
G_SEATS = 0
G_PLAYERS = 1
G_NT = 2  # tricks in the hand
G_T = 3  # index of the trick being played
G_LEADER = 4
G_NIN = 5  # cards already in the current trick
G_CMD = 6  # commander
G_PLAYED = 7  # mask of played cards
G_DONE = 8  # mask of completed tasks
G_NTASK = 9
G_DUMMY = 10  # seat of the dummy, -1 if none
G_TRUMP_WINS = 11
G_ONES_WINS = 12
G_PINK_TARGET = 13
G_COMM_LEFT = 14  # shared rapture pool
G_SILENCED = 15
G_FIRST_CMD = 16  # commander won the first trick
G_D_TRUMP = 17  # the designated member won a trick with a trump
G_TASKMASK = 18  # the task cards of this game
G_TRICKMASK = 19  # cards in the current trick
G_COMM = 20  # this game's communication mode (Deep Sea terrain may change it per game)
G_COMM_UNTIL = 21  # communication allowed only before this trick (0 = no limit)
G_NDS = 22  # Deep Sea task cards in play
G_REDEALS = 23
G_REPAIRS = 24
G_FIRST_WINNER = 25
# where the trick loop resumes (engine.tricks): a game can stop at a decision and go on later
G_PLAYING = 26  # 1 once the current trick's communications (and pn-12's draw) are over
G_UNCOVER = 27  # the dummy's face-down card turned up after the current trick, or -1
G_NCOMMS = 28  # communications made so far in the game
G_NPLAYS = 29  # cards played so far in the game
G_FORCE = 30  # 1 + the card the next play must be (the search crew's choice), 0 = none
G_PROBED = 31  # 1: the stopped decision is the one the honesty probe watches
G_COMM_K = 32  # the seat (counted from the leader) whose communication is next
G_FORCE_COMM = 33  # 2 + the card the next communication must be (1: none; 0: no choice made)
# the set-up's decisions as a script (kernel.script): replayed, taken, or a stop for the search
G_SU_J = 34  # set-up decisions met so far in this pass
G_SU_N = 35  # the first ones, replayed from ``S.script``
G_SU_SEARCH = 36  # 1: stop at a set-up decision the search crew takes
G_SU_STOP = 37  # 1 + the set-up decision the pass stopped at (0: none)
G_SU_SEAT = 38  # its seat, options (a mask of values) and the heuristic's value
G_SU_OPTIONS = 39
G_SU_PREF = 40
G_SU_GROUP = 41  # 1 + the first of decisions taken at once, unseen by each other (0: none)
G_SU_PREFIX = 42  # a rollout of the stopped decision replays the script up to this one
G_SU_FORCE = 43  # 1 + a decision the pass takes as ``G_SU_FORCE_V`` (a rollout's option)
G_SU_FORCE_V = 44
G_OWNED = 45  # five masks: the task cards each seat owns (set once the set-up has placed them)
G_SIZE = 50

SCRIPT_SIZE = 160  # set-up decisions a game may replay (Deep Sea: 16 cards x 5 answers, ...)

ENDGAME_SCRATCH = 1024  # room for 13 tricks of 5 seats, 8 deals of the unseen cards, 12 tasks

# ---- the honest-information probe (engine.probe): stop at one decision, optionally after the
# cards hidden from the deciding seat were re-dealt, and report what was decided
PR_AT = 0  # the decision to probe, counted from 1 in the game (0: no probe)
PR_COUNT = 1  # decisions taken so far
PR_SWAP = 2  # 1: replace hands, face-down dummy cards (and hidden task cards) first
PR_KIND = 3  # DEC_* of the probed decision
PR_SEAT = 4  # the seat deciding (the dummy's seat for the commander's choice for it)
PR_VALUE = 5  # what it decided: task index, 0/1, card, or -1 (no communication)
PR_TRICK = 6  # trick index (-1 during set-up)
PR_NIN = 7  # cards already in the trick
PR_COMMS = 8  # communications made before it in the game
PR_SETUP = 9  # 1 + the index of the probed decision among the set-up's (0: not a set-up one)
PROBE_SIZE = 10
DEC_DRAFT = 1  # which open task to take
DEC_YES = 2  # "can you take this task?" when the commander distributes
DEC_BLIND_YES = 3  # "will you take all the tasks?" before they are shown (pn-20/27/37)
DEC_PASS = 4  # the card to pass in the distress signal
DEC_ANSWER = 5  # a yes/no answer from the seat's own hand (designation, Deep Sea selection)
DEC_SELECT = 6  # Deep Sea: 1 + the task card taken in turn, 0 a pass, -1 none left to take
DEC_PREDICT = 7  # Deep Sea: the trick count predicted
DEC_COMM = 8  # the card to communicate, or none
DEC_PLAY = 9  # the card to play

# ---- the search crew's counts over a chunk (engine.search), read by the benchmark
SS_DECISIONS = 0  # card plays searched (a choice among two cards or more)
SS_WORLDS = 1  # worlds sampled
SS_ROLLOUTS = 2  # games played on to their end
SS_EARLY = 3  # decisions the sequential test settled before the most worlds
SS_CHAINED = 4  # worlds the chain gave (rejection kept failing)
SS_SETUP = 5  # set-up decisions searched (of SS_DECISIONS)
SEARCH_STATS = 6

# ---- the chunk's scratch state as one record: arrays viewed out of a numpy record carry no
# reference count, so passing them between jitted functions costs no atomic incref/decref.
STATE_FIELDS = (
    ("mp", "i8", MP_SIZE),
    ("bp", "f8", BP_SIZE),
    ("g", "i8", G_SIZE),
    ("rng", "i8", 1),  # the bots' random choices
    ("deal_rng", "i8", 1),  # the deal and the task draw of the current game
    ("hands", "i8", 5),
    ("possible", "i8", 5),
    ("known", "i8", 5),
    ("won", "i8", 5),
    ("trick", "i8", 5),
    ("passes", "i8", 5),
    ("comm_used", "i8", 5),
    ("count", "i8", 5),
    ("under", "i8", 40),
    ("deck", "i8", 40),
    ("tcard", "i8", MAX_TASKS),
    ("towner", "i8", MAX_TASKS),
    ("tpred", "i8", MAX_TASKS),
    ("ttok", "i8", MAX_TASKS),
    ("pick", "i8", MAX_TASKS),
    ("desig", "i8", 2),
    ("obj_done", "i8", 3),
    ("want", "f8", 5),
    ("ct", "i8", 80),
    ("res", "i8", 3),
    ("won_cards", "i8", 5),  # cards won so far, per seat
    ("ds_tab", "i8", 96 * DS_COLS),  # crewsim.kernel.deep_sea_tables, flattened
    ("ds_code", "i8", 96 * 8),  # crewsim.kernel.conditions.encode_tasks, flattened
    ("ds_task", "i8", MAX_DS),  # rows of the task cards in play, in reveal order
    ("ds_owner", "i8", MAX_DS),
    ("ds_pred", "i8", MAX_DS),  # predicted trick count (prediction cards), else -1
    ("ds_state", "i8", MAX_DS * 4),  # per-task scratch of the condition judges
    ("ds_done", "i8", MAX_DS),
    ("ds_base", "f8", 2 * MAX_DS),  # per decision: counting cards' values without my card
    ("ds_open", "i8", TK_NEVER + 1),  # per decision: the open task slots by kind (TK_*)
    ("ds_deck", "i8", 96),
    ("score", "f8", 5),
    ("endgame", "i8", ENDGAME_SCRATCH),  # the endgame search's arrays (bots.endgame)
    ("search_stats", "i8", SEARCH_STATS),  # the search crew's counts over a chunk
    ("probe", "i8", PROBE_SIZE),
    ("probe_hands", "i8", 5),
    ("probe_under", "i8", 40),
    ("probe_tasks", "i8", MAX_TASKS),
    ("ds_clash", "i8", 2 * MAX_DS),  # the selection's clashes per task slot (deep_sea_setup)
    ("ds_sim", "i8", MAX_DS),  # the selection's look-ahead owners (deep_sea_setup)
    ("script", "i8", SCRIPT_SIZE),  # the set-up's decisions of this game (kernel.script)
)
