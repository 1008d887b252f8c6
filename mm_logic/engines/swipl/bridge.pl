:- module(mmlogic_swipl,
          [ load_encoding/4,     % +File, +Wanted, -Module, -Messages
            load_encoding/5,     % +File, +Wanted, +Seconds, -Module, -Messages
            load_encoding/6,     % +Number, +File, +Wanted, +Seconds, -Module,
                                 % -Messages
            undefined/2,         % +Module, -Missing
            undefined/3,         % +Module, +Predicates, -Missing
            ask/7,               % +Module, +Rules, +History, +Question, +Limit,
                                 % +Seconds, -Answer
            told_table/7,        % +Module, +Rules, +Guesses, +Secrets, +Arity,
                                 % +Seconds, -Answer
            told_table/8         % +Number, +Module, +Rules, +Guesses, +Secrets,
                                 % +Arity, +Seconds, -Answer
          ]).
:- use_module(library(apply), [maplist/3]).
:- use_module(library(lists), [append/3, member/2]).

/** <module> mmlogic's swipl adapter, Prolog side

Glue, not game logic: what a consistent code is lives in the encoding
(mm_logic/encodings/mastermind.pl or a user's edited copy). This module

  - loads an encoding with every error and warning Prolog reports captured
    instead of printed, each with its file:line, and the file's `:- module`
    renamed to a name the adapter chooses, so an edited copy of
    mastermind.pl loads beside the shipped one (load_encoding/4);
  - asks questions about a history (ask/7) on a copy of a template secret
    per rules (posting the code space once: copy_term/2 of it is about 40
    times cheaper), and keeps the propagated secret after each prefix of
    the last question's history, so the next guess of a game or a child in
    a strategy tree posts only its new entries;
  - bounds each question by a deadline checked in prolog:heartbeat/0, which
    also calls into Python so that Ctrl-C is seen during long searches, and
    by call_with_time_limit/2 where library(time) is installed (it is not in
    Debian's bare swi-prolog-core: the heartbeat alone keeps the deadline
    there);
  - bounds a load by the same deadline, and stops it when the adapter asks
    (stop_load/1), in the heartbeat: a load runs its directives with signals
    blocked, so that neither the alarm nor a thread signal reaches them. A
    directive the heartbeat does not reach either (`spin :- spin.`, a wait
    in C) is left running by the adapter, in the thread it loads in
    (runtime.py, Loader).

Answers are plain data for janus: a code is a list of integers, `none` is
"no code", and `timeout`, `interrupted` or `error-Message` report a question
that did not finish.
*/

:- dynamic
    loading/2,                   % File, Module: load_encoding/4 is running
    loading_in/1,                % Thread: the thread it runs in
    captured/4,                  % File, Line, Kind, Text: a message it saw
    load_stopped/1,              % Number: the adapter stops load Number
    file_flags/2,                % File, Flags: the Prolog flags its load set
    template_key/2,              % Module, Key: nb_setval key of a template
    failed_load/1.               % File: its last load reported messages

                 /*******************************
                 *     LOADING AN ENCODING      *
                 *******************************/

%!  load_encoding(+File, +Wanted, -Module, -Messages) is det.
%
%   Load File (if it changed since it was last loaded), calling its module
%   Wanted whatever its `:- module` directive says. Module is the module
%   that holds the encoding's predicates; Messages lists every error and
%   warning Prolog reported meanwhile, as [File, Line, Kind, Text].
%   After a failed load the file is unloaded, so that loading it again
%   reports the same messages.
%
%   ```
%   ?- load_encoding('mm_logic/encodings/mastermind.pl', mastermind, M, Msgs).
%   M = mastermind, Msgs = [].
%   ```

load_encoding(File, Wanted, Module, Messages) :-
    load_encoding(File, Wanted, 0, Module, Messages).

%!  load_encoding(+File, +Wanted, +Seconds, -Module, -Messages) is det.
%
%   As load_encoding/4, within Seconds (0: no limit): a directive still
%   running then (a user's loop) ends the load with time_limit_exceeded.
%
%   ```
%   ?- load_encoding('mm_logic/encodings/mastermind.pl', mastermind, 5, M, Msgs).
%   M = mastermind, Msgs = [].
%   ```

load_encoding(File, Wanted, Seconds, Module, Messages) :-
    load_encoding(0, File, Wanted, Seconds, Module, Messages).

%!  load_encoding(+Number, +File, +Wanted, +Seconds, -Module, -Messages) is det.
%
%   As load_encoding/5, as load Number of the process (> 0): stop_load/1
%   stops it as Ctrl-C stops a question, from another thread.
%
%   ```
%   ?- load_encoding(1, 'mm_logic/encodings/mastermind.pl', mastermind, 5, M, Msgs).
%   M = mastermind, Msgs = [].
%   ```

load_encoding(Number, File, Wanted, Seconds, Module, Messages) :-
    % In a thread janus made for Python's, the heartbeat runs only in a query
    % that set its flag (measured: the flag's value is there, its beat not).
    current_prolog_flag(heartbeat, Beat),
    set_prolog_flag(heartbeat, Beat),
    retractall(captured(_, _, _, _)),
    % if(changed) would skip a file whose last load failed in a directive:
    % unload_file/1 does not make it "changed".
    (   retract(failed_load(File))
    ->  If = true
    ;   If = changed
    ),
    thread_self(Me),
    load_count(File, Count0),
    findall(Flag-Value, current_prolog_flag(Flag, Value), Flags0),
    setup_call_cleanup(
        ( asserta(loading(File, Wanted)), asserta(loading_in(Me)),
          nb_setval(mmlogic_load, Number)
        ),
        catch(within(Seconds,
                     load_files(Wanted:File, [if(If), imports([])])),
              Error,
              (   interrupt(Error)
              ->  throw(Error)
              ;   print_message(error, Error)
              )),
        ( retractall(loading(_, _)), retractall(loading_in(Me)),
          nb_setval(mmlogic_load, 0), retractall(load_stopped(Number))
        )),
    findall([F, L, K, T], (captured(F, L, K, T), \+ memberchk(K, [interrupt, timeout])), Messages),
    (   source_file_property(File, module(Module))
    ->  true
    ;   Module = Wanted
    ),
    forget_templates(Module),
    (   load_count(File, Count0)        % not loaded again: its flags are as set last
    ->  true
    ;   findall(Flag-Value, ( current_prolog_flag(Flag, Value),
                              \+ memberchk(Flag-Value, Flags0) ), Set),
        retractall(file_flags(File, _)),
        assertz(file_flags(File, Set))
    ),
    (   \+ captured(_, _, _, _)
    ->  true
    ;   catch(unload_file(File), _, true),
        assertz(failed_load(File))
    ),
    % Ctrl-C or the deadline in a directive (library(clpfd) loads for a
    % second or so) is printed as a message and the load goes on: raise it
    % here.
    (   captured(_, _, interrupt, Interrupt)
    ->  throw(Interrupt)
    ;   captured(_, _, timeout, _)
    ->  throw(time_limit_exceeded)
    ;   true
    ).

%!  undefined(+Module, -Missing) is det.
%
%   Missing lists (as "name/arity" strings) the predicates the adapter
%   calls that Module does not define or import.
%
%   ```
%   ?- undefined(mastermind, Missing).
%   Missing = [].
%   ```

undefined(Module, Missing) :-
    undefined(Module, [secret/2, feedback/2, first/2, any/2, all/3, count/2], Missing).

%!  undefined(+Module, +Predicates, -Missing) is det.
%
%   As undefined/2, of Predicates (Name/Arity, Name an atom or a string):
%   what an option needs beside them (`--labeling`: labeled/3).
%
%   ```
%   ?- undefined(mastermind, ["labeled"/3, nothing/1], Missing).
%   Missing = ["nothing/1"].
%   ```

undefined(Module, Predicates, Missing) :-
    findall(Text,
            (   member(Given/Arity, Predicates),
                atom_string(Name, Given),
                functor(Head, Name, Arity),
                \+ predicate_property(Module:Head, defined),
                format(string(Text), "~w/~w", [Name, Arity])
            ),
            Missing).

% How many times File was loaded (0: never).
load_count(File, Count) :-
    (   source_file_property(File, load_count(Count0))
    ->  Count = Count0
    ;   Count = 0
    ).

%!  adopt_flags(+File) is det.
%
%   Set in this thread the Prolog flags the last load of File set (a
%   directive's set_prolog_flag/2, e.g. occurs_check): most flags are the
%   thread's own, and the adapter loads in a thread of its own (runtime.py,
%   Loader), not in the thread that asks the questions.

adopt_flags(File) :-
    forall(( file_flags(File, Flags), member(Flag-Value, Flags) ),
           catch(set_prolog_flag(Flag, Value), _, true)).

%!  stop_load(+Number) is det.
%
%   Ctrl-C, from the adapter's waiting thread, for load Number running in
%   another thread: its next heartbeat throws as the heartbeat's Ctrl-C
%   does (and so does every later one of that load). Nothing once the load
%   has ended.

stop_load(Number) :-
    assertz(load_stopped(Number)).

% While an encoding loads in this thread: keep its errors and warnings, print
% nothing. (Another thread's messages meanwhile are its own.)
:- multifile user:message_hook/3.
user:message_hook(Term, Kind, Lines) :-
    ( Kind == error ; Kind == warning ),
    thread_self(Me),
    loading_in(Me),
    (   interrupt(Term)
    ->  assertz(captured('', 0, interrupt, Term))
    ;   Term == time_limit_exceeded
    ->  assertz(captured('', 0, timeout, Term)),
        % past the deadline: the next heartbeat ends the next directive too
        nb_setval(mmlogic_deadline, 1)
    ;   (   source_location(File, Line)
        ->  true
        ;   File = '', Line = 0
        ),
        message_text(Term, Kind, Lines, Text),
        assertz(captured(File, Line, Kind, Text))
    ),
    !.

% A file an encoding includes or loads that is no regular file (a FIFO) would
% be opened and waited on for ever, deaf to the time limit: refused, at the
% directive that names it. (The encoding's own file is checked by the adapter.)
:- multifile prolog:open_source_hook/3.
prolog:open_source_hook(Path, _Stream, _Options) :-
    thread_self(Me),
    loading_in(Me),
    access_file(Path, exist),
    \+ exists_file(Path),
    (   source_location(File, Line)
    ->  true
    ;   File = '', Line = 0
    ),
    format(string(Text), "the included ~w is not a regular file", [Path]),
    assertz(captured(File, Line, error, Text)),
    throw(error(permission_error(open, source_sink, Path), _)).

% A regular file it includes or loads that cannot be read (an I/O error: Prolog's
% message named a stream, not the file) or that is larger than mmlogic reads
% (mm_logic.support.files.MAX_READ_BYTES, 1 GiB): refused, naming it, at its directive.
prolog:open_source_hook(Path, _Stream, _Options) :-
    thread_self(Me),
    loading_in(Me),
    exists_file(Path),
    unreadable(Path, Why),
    (   source_location(File, Line)
    ->  true
    ;   File = '', Line = 0
    ),
    format(string(Text), "cannot read the included ~w: ~w", [Path, Why]),
    assertz(captured(File, Line, error, Text)),
    throw(error(permission_error(open, source_sink, Path), _)).

unreadable(Path, Why) :-
    max_read_bytes(Max),
    Limit is Max + 1,
    catch(setup_call_cleanup(open(Path, read, In, [type(binary)]),
                             read_string(In, Limit, Data),
                             close(In)),
          error(Error, Context),
          true),
    (   nonvar(Error)
    ->  (   Context = context(_, Message), atomic(Message)
        ->  Why = Message
        ;   term_string(Error, Why)
        )
    ;   string_length(Data, Length),
        Length >= Limit,
        Why = "larger than 1 GiB, more than mmlogic reads"
    ).

max_read_bytes(1073741824).             % mm_logic.support.files.MAX_READ_BYTES (a test keeps them equal)

% A halt refused while an encoding runs is said by the adapter (refuse_halt/0),
% not as Prolog's "% Halt cancelled".
user:message_hook(cancel_halt(mmlogic_encoding), _, _).

message_text(_Term, _Kind, Lines, Text) :-
    with_output_to(string(Text),
                   print_message_lines(current_output, '', Lines)).

% The encoding being loaded gets the module name the adapter chose.
:- multifile user:term_expansion/2.
user:term_expansion((:- module(_, Exports)), (:- module(Module, Exports))) :-
    loading(File, Module),
    prolog_load_context(source, File).


                 /*******************************
                 *      ASKING A QUESTION       *
                 *******************************/

%!  ask(+Module, +Rules, +History, +Question, +Limit, +Seconds, -Answer) is det.
%
%   Answer Question (first, any, all, count, or labeled: `any` in the
%   labeling order Limit, e.g. ff; Limit bounds all) about the codes of
%   Rules consistent with History, a list of Guess-Black-White, with the
%   encoding in Module, within Seconds (0: no limit).
%
%   ```
%   ?- ask(mastermind, rules(4,6,4), [[0,0,1,1]-1-0], count, inf, 0, N).
%   N = 256.
%   ```

ask(Module, Rules, History, Question, Limit, Seconds, Answer) :-
    catch(within(Seconds, answer(Module, Rules, History, Question, Limit, Answer0)),
          Error,
          failed(Error, Answer0)),
    !,
    Answer = Answer0.
ask(_, _, _, _, _, _, error-"the question failed").

%!  asking(+Number, +Module, +Rules, +History, +Question, +Limit, +Seconds, -Answer) is det.
%
%   As ask/7, as question Number of the process: interrupt_question/1
%   stops only the question it names.

asking(Number, Module, Rules, History, Question, Limit, Seconds, Answer) :-
    asking(Number, Module, Rules, 0, History, Question, Limit, Seconds, Answer).

%!  asking(+Number, +Module, +Rules, +Lies, +History, +Question, +Limit, +Seconds, -Answer) is det.
%
%   As asking/8 in a game where at most Lies answers may be wrong (--lies):
%   the encoding's feedback/5 posts the entries.

asking(Number, Module, Rules0, Lies, History, Question, Limit, Seconds, Answer) :-
    (   Lies =:= 0
    ->  Rules = Rules0
    ;   Rules = lying(Rules0, Lies)
    ),
    as_question(Number, ask(Module, Rules, History, Question, Limit, Seconds, Answer0), Answer0, Answer1),
    (   Answer1 == halted
    ->  Answer = error-"it called halt/1, which would end mmlogic"
    ;   Answer = Answer1
    ).

%   as_question(+Number, :Goal, ?Answer0, -Answer)
%
%   Run Goal as question Number of the process: stop_question/1 stops it
%   (Ctrl-C, SIGTERM), and a halt/1 it calls is refused (refuse_halt/0).
%   Answer is Answer0 as Goal left it, or `halted` after such a halt.

as_question(Number, Goal, Answer0, Answer) :-
    thread_self(Me),
    setup_call_cleanup(( nb_setval(mmlogic_question, Number),
                         asserta(asking_thread(Number, Me))
                       ),
                       Goal,
                       ( retractall(asking_thread(Number, _)),
                         nb_setval(mmlogic_question, 0)
                       )),
    (   retract(halted(Me))
    ->  retractall(halted(Me)),
        Answer = halted
    ;   Answer = Answer0
    ).

:- dynamic
    asking_thread/2,             % Number, Thread: question Number runs in Thread
    halted/1.                    % Thread: an encoding called halt/1 in its question there

%   An encoding that calls halt/1, in a directive or in a question, would end
%   the process, mmlogic with it, without a word and with an exit code the
%   contract gives other meanings (`:- halt(3).` exited 3, "no consistent
%   code"). While an encoding loads or answers in the thread that calls
%   halt/1, halting is cancelled (halt/1 then fails) and said: as the load's
%   first message, or as the question's error. A halt from another thread,
%   or at any other time, halts the process as usual.

:- at_halt(refuse_halt).

refuse_halt :-
    thread_self(Me),
    (   loading_in(Me)
    ->  (   source_location(File, Line)
        ->  true
        ;   File = '', Line = 0
        ),
        assertz(captured(File, Line, error, "the encoding calls halt/1, which would end mmlogic"))
    ;   asking_thread(_, Me)
    ->  assertz(halted(Me))
    ),
    !,
    cancel_halt(mmlogic_encoding).
refuse_halt.

%!  stop_question(+Number) is det.
%
%   Ctrl-C, from the adapter's watcher thread (runtime.py), for loops
%   that make no inference the heartbeat counts (`spin :- spin.`): the
%   thread that runs question Number is signalled to throw as the
%   heartbeat's Ctrl-C does. Nothing when the question has ended.

stop_question(Number) :-
    (   asking_thread(Number, Thread)
    ->  catch(thread_signal(Thread, interrupt_question(Number)), _, true)
    ;   true
    ).

%   Run by the signalled thread at its next call port. A signal that
%   arrives after its question ended runs at the next call into Prolog,
%   and must not stop that one.
interrupt_question(Number) :-
    (   nb_current(mmlogic_question, Number)
    ->  throw(error(python_error('KeyboardInterrupt', none), _))
    ;   true
    ).

%!  take_wake_signal(+Signal) is semidet.
%
%   Handle Signal (e.g. usr1), which nobody handles, by doing nothing:
%   sent by the adapter's watcher to the thread of a question it stops, it
%   interrupts a wait in C (sleep/1), where the thread then takes the stop.
%   Embedded, Prolog interrupts no wait of its own (the `signals` flag is
%   false). Fails, the handler left as it was, if Signal had one.

take_wake_signal(Signal) :-
    on_signal(Signal, Old, mmlogic_swipl:woken),
    (   Old == default
    ->  true
    ;   on_signal(Signal, _, Old),
        fail
    ).

woken(_).

%!  expire_question(+Number) is det.
%
%   The time limit, from the adapter's watcher thread (runtime.py), for a
%   question the alarm did not stop: one that waits in C (sleep/1), which
%   the alarm's signal does not interrupt in embedded Prolog. The thread
%   that runs question Number is signalled to throw time_limit_exceeded,
%   as the alarm would. Nothing when the question has ended.

expire_question(Number) :-
    (   asking_thread(Number, Thread)
    ->  catch(thread_signal(Thread, question_expired(Number)), _, true)
    ;   true
    ).

question_expired(Number) :-
    (   nb_current(mmlogic_question, Number)
    ->  throw(time_limit_exceeded)
    ;   true
    ).

answer(Module, Rules, History, Question, Limit, Answer) :-
    maplist(entry, History, Entries),
    (   consistent(Module, Rules, Entries, Secret)
    ->  question(Question, Module, Secret, Limit, Answer)
    ;   nothing(Question, Answer)
    ).

entry(Guess-Black-White, guess(Guess, Black, White)).
entry(-(black, Guess, Black), black(Guess, Black)).
entry(-(marks, Guess, Marks), marks(Guess, Marks)).
entry(-(told, Guess, Numbers), told(Guess, Numbers)).
entry(-(won, Guess, []), won(Guess)).
entry(-(missed, Guess, []), missed(Guess)).

question(first, M, Secret, _, Answer) :-
    ( M:first(Secret, Code) -> Answer = Code ; Answer = none ).
question(labeled, M, Secret, Option, Answer) :-    % any, in the labeling order Option
    ( M:labeled(Secret, [Option], Code) -> Answer = Code ; Answer = none ).
question(any, M, Secret, _, Answer) :-
    ( M:any(Secret, Code) -> Answer = Code ; Answer = none ).
question(all, M, Secret, Limit, Codes) :-
    M:all(Secret, Limit, Codes).
question(count, M, Secret, _, Count) :-
    M:count(Secret, Count).
question(counted, M, Secret, Bound-Seconds, Count-Finished) :-
    counted(M, Secret, Bound, Seconds, Count, Finished).

%   counted(+Module, +Secret, +Bound, +Seconds, -Count, -Finished)
%
%   Count the codes Secret may be, up to Bound of them, for at most Seconds
%   (0: no limit): Finished is false when time ran out first, and Count the
%   codes found by then, a lower bound. Codes come from the encoding's
%   code/2 where it has one, else from all/3 (all at once: nothing is
%   counted until it answers).

counted(M, Secret, Bound, Seconds, Count, Finished) :-
    State = found(0),
    (   catch(within(Seconds, ignore(\+ \+ counting(M, Secret, Bound, State))), time_limit_exceeded, fail)
    ->  Finished = true
    ;   Finished = false
    ),
    arg(1, State, Count).

counting(M, Secret, Bound, State) :-
    (   predicate_property(M:code(_, _), defined)
    ->  M:code(Secret, _)
    ;   M:all(Secret, Bound, Codes),
        member(_, Codes)
    ),
    arg(1, State, Found0),
    Found is Found0 + 1,
    nb_setarg(1, State, Found),
    Found >= Bound.

% Ctrl-C, as the heartbeat's call into Python reports it.
interrupt(error(python_error('KeyboardInterrupt', _), _)).
interrupt(unwind(keyboard_interrupt)).

% The answer when no code is consistent: the history contradicts itself.
nothing(first, none).
nothing(any, none).
nothing(labeled, none).
nothing(all, []).
nothing(count, 0).
nothing(counted, 0-true).

% How a question that did not finish is reported.
failed(time_limit_exceeded, timeout) :- !.
failed(Error, interrupted) :- interrupt(Error), !.
failed(Error, error-Text) :-
    catch(message_to_string(Error, Text0), _, fail),
    !,
    Text = Text0.
failed(Error, error-Text) :-
    format(string(Text), "~q", [Error]).

%   Secret: a copy of the template secret of Module for Rules with the
%   constraints of Entries posted. The propagated secret after each prefix
%   of the last question's entries is kept (global variables
%   mmlogic_state_1, _2, ...; their entries in mmlogic_path), so that a
%   question whose history extends a kept prefix (the next guess of a game,
%   a child in a strategy tree) posts only the new entries.
consistent(Module, Rules, Entries, Secret) :-
    (   nb_current(mmlogic_path, path(Module, Rules, Kept))
    ->  true
    ;   Kept = []
    ),
    common_prefix(Entries, Kept, 0, Depth, New),
    (   Depth =:= 0
    ->  start(Module, Rules, Start)
    ;   state_key(Depth, Key),
        nb_getval(Key, Start)
    ),
    copy_term(Start, State),
    length(Prefix, Depth),
    append(Prefix, _, Entries),
    nb_setval(mmlogic_path, path(Module, Rules, Prefix)),
    post(New, path(Module, Rules, Prefix), Depth, State, Secret).

% Depth entries of Entries are kept; New are the others.
common_prefix([E|Es], [K|Ks], D0, D, New) :-
    E == K,
    !,
    D1 is D0 + 1,
    common_prefix(Es, Ks, D1, D, New).
common_prefix(New, _, D, D, New).

%   The state before any entry: the template secret, and in a game with lies
%   (Rules = lying(Rules0, Most)) the lies counted so far, none.
start(Module, lying(Rules, _Most), lying(Secret, 0)) :-
    !,
    template(Module, Rules, Secret).
start(Module, Rules, Secret) :-
    template(Module, Rules, Secret).

% Post the new entries one by one, keeping the state after each.
post([], _, _, State, Secret) :-
    secret_of(State, Secret).
post([Entry|Entries], path(Module, Rules, Prefix0), Depth0, State0, Secret) :-
    tell(Module, Rules, State0, Entry, State),
    Depth is Depth0 + 1,
    state_key(Depth, Key),
    nb_setval(Key, State),
    append(Prefix0, [Entry], Prefix),
    nb_setval(mmlogic_path, path(Module, Rules, Prefix)),
    post(Entries, path(Module, Rules, Prefix), Depth, State, Secret).

% One entry: the encoding's feedback/2, or feedback/5 counting the lies.
tell(Module, lying(_, Most), lying(Secret, Lies0), Entry, lying(Secret, Lies)) :-
    !,
    Module:feedback(Secret, Entry, Most, Lies0, Lies).
tell(Module, _, Secret, Entry, Secret) :-
    Module:feedback(Secret, Entry).

secret_of(lying(Secret, _), Secret) :- !.
secret_of(Secret, Secret).

state_key(Depth, Key) :-
    atom_concat(mmlogic_state_, Depth, Key).

%   The secret of Module for Rules before any guess, posted on first use.
template(Module, Rules, Template) :-
    format(atom(Key), 'mmlogic_secret:~q:~q', [Module, Rules]),
    (   nb_current(Key, Template)
    ->  true
    ;   Module:secret(Rules, Template0),
        nb_setval(Key, Template0),
        assertz(template_key(Module, Key)),
        nb_getval(Key, Template)
    ).

% Templates are per loaded version of an encoding.
forget_templates(Module) :-
    forall(retract(template_key(Module, Key)),
           ( nb_current(Key, _) -> nb_delete(Key) ; true )),
    nb_setval(mmlogic_path, none).


                 /*******************************
                 *   A RULE STATED IN PROLOG    *
                 *******************************/

%!  told_table(+Module, +Rules, +Guesses, +Secrets, +Arity, +Seconds, -Answer) is det.
%
%   What the encoding in Module tells of every code of Guesses against
%   every code of Secrets (codes it admits), as the feedback rule of one's
%   own that its feedback/2 states for told(Guess, Numbers) entries
%   (docs/encodings.md): mmlogic derives the rule's table from it
%   (`--feedback FILE.pl`). Answer is a list per secret, one cell per
%   guess: the index of the Arity numbers told (each 0..Pegs, in base
%   Pegs + 2, the first most significant); the win's index (every number
%   Pegs + 1) when the guess is the secret; -1 when the encoding tells
%   nothing; -(2 + A * Slots + B) when it tells two answers, of indices A
%   and B (Slots = (Pegs + 2)^Arity). Within Seconds (0: no limit);
%   otherwise Answer is `timeout`, `interrupted` or error-Message, as for
%   ask/7.
%
%   Each secret is a copy of the template secret with its pegs bound to
%   the code; the numbers are labelled when feedback/2 leaves them free.
%
%   ```
%   ?- told_table(mastermind, rules(2, 2, 2), [[0,0]], [[0,0], [0,1]], 1, 0, A).
%   A = [[3], [-1]].
%   ```

told_table(Module, Rules, Guesses, Secrets, Arity, Seconds, Answer) :-
    catch(( within(Seconds, told_columns(Module, Rules, Guesses, Secrets, Arity, Columns)),
            Answer0 = Columns
          ),
          Error,
          failed(Error, Answer0)),
    !,
    Answer = Answer0.
told_table(_, _, _, _, _, _, error-"the derivation failed").

%!  told_table(+Number, +Module, +Rules, +Guesses, +Secrets, +Arity, +Seconds, -Answer) is det.
%
%   As told_table/7, as question Number of the process: stop_question/1
%   stops it (the adapter's Ctrl-C and SIGTERM, for a rule that loops
%   where the heartbeat does not see it), and a halt/1 the encoding calls
%   is refused: Answer is then `halted`.
%
%   ```
%   ?- told_table(1, mastermind, rules(2, 2, 2), [[0,0]], [[0,0], [0,1]], 1, 0, A).
%   A = [[3], [-1]].
%   ```

told_table(Number, Module, Rules, Guesses, Secrets, Arity, Seconds, Answer) :-
    as_question(Number, told_table(Module, Rules, Guesses, Secrets, Arity, Seconds, Answer0), Answer0, Answer).

told_columns(Module, Rules, Guesses, Secrets, Arity, Columns) :-
    template(Module, Rules, Template),
    Rules = rules(Pegs, _, _),
    maplist(told_column(Module, Template, Guesses, Pegs, Arity), Secrets, Columns).

% The cells of one secret, Code: none when the encoding does not admit it.
told_column(Module, Template, Guesses, Pegs, Arity, Code, Column) :-
    stop_if_halted,
    copy_term(Template, Secret),
    (   predicate_property(Module:pegs(_, _), defined)
    ->  Module:pegs(Secret, Code)
    ;   arg(1, Secret, Code)
    ),
    !,
    maplist(told_cell(Module, Secret, Code, Pegs, Arity), Guesses, Column).
told_column(_, _, Guesses, _, _, _, Column) :-
    findall(-1, member(_, Guesses), Column).

% A halt/1 refused (refuse_halt/0) makes the rule tell nothing: the derivation
% stops at the next code rather than halting at each of its cells.
stop_if_halted :-
    (   thread_self(Me),
        halted(Me)
    ->  throw(mmlogic_halted)
    ;   true
    ).

told_cell(_, _, Code, Pegs, Arity, Guess, Cell) :-
    Guess == Code,
    !,
    Win is Pegs + 1,
    findall(Win, between(1, Arity, _), Wins),
    told_index(Wins, Pegs, Cell).
told_cell(Module, Secret, _, Pegs, Arity, Guess, Cell) :-
    length(Ns, Arity),
    % Most rules answer deterministically: one call, and all answers (two at most) only when a choice
    % point is left (findall and limit cost a third of a cell).
    (   call_cleanup(told_numbers(Module, Secret, Guess, Pegs, Ns), Det = true),
        (   var(Det)
        ->  Once = false
        ;   Once = true
        )
    ->  (   Once == true
        ->  told_index(Ns, Pegs, Cell)
        ;   length(Ns2, Arity),
            findall(Ns2, limit(2, distinct(Ns2, told_numbers(Module, Secret, Guess, Pegs, Ns2))), Answers),
            told_cell(Answers, Pegs, Cell)
        )
    ;   Cell = -1
    ).

told_cell([Ns], Pegs, Cell) :-
    told_index(Ns, Pegs, Cell).
told_cell([A, B], Pegs, Cell) :-
    told_index(A, Pegs, IA),
    told_index(B, Pegs, IB),
    length(A, Arity),
    Slots is (Pegs + 2) ^ Arity,
    Cell is -(2 + IA * Slots + IB).

% Numbers told of Guess by the secret (not the guess): whole numbers 0..Pegs.
told_numbers(Module, Secret, Guess, Pegs, Ns) :-
    Module:feedback(Secret, told(Guess, Ns)),
    (   ground(Ns)
    ->  forall(member(N, Ns), (integer(N), between(0, Pegs, N)))
    ;   clpfd:ins(Ns, '..'(0, Pegs)),      % library(clpfd)'s operators are not this module's
        clpfd:label(Ns)
    ).

told_index(Ns, Pegs, Index) :-
    Base is Pegs + 2,
    told_index(Ns, Base, 0, Index).

told_index([], _, Index, Index).
told_index([N|Ns], Base, Index0, Index) :-
    Index1 is Index0 * Base + N,
    told_index(Ns, Base, Index1, Index).


                 /*******************************
                 *    TIME LIMIT AND CTRL-C     *
                 *******************************/

%   Run Goal once; after Seconds (if > 0), throw time_limit_exceeded.
%   The heartbeat checks the deadline; the alarm of call_with_time_limit/2
%   stops a question whose loop makes no inference the heartbeat counts (a
%   user's `spin :- spin.` ran for ever under the heartbeat alone). Neither
%   stops such a loop in a directive: SWI-Prolog runs no alarm while
%   load_files/2 runs one (it runs in sig_atomic/1); the adapter leaves such
%   a load running when its time is up.
within(Seconds, Goal) :-
    (   Seconds > 0
    ->  get_time(Now),
        Deadline is Now + Seconds,
        setup_call_cleanup(nb_setval(mmlogic_deadline, Deadline),
                           alarmed(Seconds, Goal),
                           nb_setval(mmlogic_deadline, 0))
    ;   once(Goal)
    ).

:- if(exists_source(library(time))).
:- use_module(library(time), [call_with_time_limit/2]).
alarmed(Seconds, Goal) :-
    call_with_time_limit(Seconds, Goal).
:- else.
alarmed(_, Goal) :-
    once(Goal).
:- endif.

%   Called every `heartbeat` inferences: the deadline, a load the adapter
%   stops (stop_load/1), then Python's signal handlers (a Ctrl-C raises
%   KeyboardInterrupt there).
:- multifile prolog:heartbeat/0.
prolog:heartbeat :-
    (   nb_current(mmlogic_deadline, Deadline),
        Deadline > 0,
        get_time(Now),
        Now > Deadline
    ->  nb_setval(mmlogic_deadline, 0),
        throw(time_limit_exceeded)
    ;   nb_current(mmlogic_load, Load),
        Load > 0,
        load_stopped(Load)
    ->  throw(error(python_error('KeyboardInterrupt', none), _))
    ;   true
    ),
    py_call(janus_swi:heartbeat_tick()).
