"""Developer tools, outside the installed package: the kernel and solver benchmarks
(``make bench``) and the kernel profiler (``make profile``)."""
