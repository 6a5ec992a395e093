% swipl-tcmalloc.pl [--pause FIFO]: SWI-Prolog (swipl links tcmalloc before
% libc: tcmalloc's malloc serves every library by link order) doing a
% little work; SWI-Prolog looks tcmalloc's extension up by name and, when
% it is there, reports its heap through it (malloc_property/1). With
% --pause, once the work is done it prints `paused <pid>` and waits until
% FIFO is written to.
:- initialization(main, main).

main(Argv) :-
    numlist(1, 20000, L), atomic_list_concat(L, ',', A), atom_length(A, N),
    format("atom ~d bytes~n", [N]),
    (   catch(malloc_property('generic.current_allocated_bytes'(B)), _, fail)
    ->  format("malloc_property (tcmalloc's extension, found by name): ~d bytes allocated~n", [B])
    ;   format("malloc_property: no answer~n")
    ),
    flush_output,
    (   Argv = ['--pause', F]
    ->  current_prolog_flag(pid, P), format("paused ~d~n", [P]), flush_output,
        open(F, read, S), read_string(S, _, _), close(S)
    ;   true
    ),
    trim_heap,
    format("trim_heap: done~n").
