:- module(mastermind,
          [ secret/2,            % +Rules, -Secret
            pegs/2,              % +Secret, -Pegs
            feedback/2,          % +Secret, +Entry
            feedback/5           % +Secret, +Entry, +Most, +Lies0, -Lies
          ]).
% The questions mmlogic asks (first/2, any/2, labeled/3, all/3, code/2,
% count/2) are in questions.pl beside this file, and are this module's too.
:- reexport(mmlogic(questions)).
:- use_module(library(clpfd)).
:- use_module(library(apply), [exclude/3, foldl/5, maplist/2, maplist/3, maplist/4]).
:- use_module(library(pairs), [group_pairs_by_key/2, pairs_keys/2, pairs_keys_values/3]).
:- use_module(library(lists), [append/3, clumped/2, nth0/3, nth1/3, numlist/3]).

/** <module> Mastermind and bulls and cows in CLP(FD): the game's rules

The secret codes consistent with a history of guesses, as constraints over
finite domains. A *secret* is posted once for the rules (secret/2); every
played guess adds the constraint of its feedback (feedback/2). This file
holds the game's rules and nothing else: the questions that label the pegs
(first/2, any/2, labeled/3, all/3, code/2, count/2) are in questions.pl, in
the same folder, reexported from here, so loading this module gives all of
them, and one secret can be asked several questions.

Terms:

  - *Rules* is rules(Pegs, Colours, Repeat): codes of Pegs pegs over the
    colours 0..Colours-1, each colour on at most Repeat pegs (Repeat = Pegs:
    unlimited; Repeat = 1: bulls and cows).
  - A *code* is a list of Pegs colours. *Lexicographic* order: colour 0 <
    colour 1 < ..., the first peg most significant (the order of first/2).
  - An *entry* of the history is guess(Code, Black, White): Black pegs of
    the guess have the secret's colour in the same place, and White is the
    rest of the colours they share, each pairing of colours counted once
    (white = sum over colours c of min(count in guess, count in secret) -
    black). Under the other feedback rules it is black(Code, Black) (black
    pegs only) or marks(Code, Marks), one mark per peg: x (right colour,
    right place), o (the colour is elsewhere, credited as often as the
    secret holds it beyond the x pegs, earlier pegs first) or - (neither).

mmlogic's swipl engine calls secret/2 once per rules and copies the result
for every question (so secret/2 must be pure and deterministic), then calls
feedback/2 for each entry not posted yet, and one question. To play a
variant, reexport this file and wrap secret/2 (examples/no_adjacent.pl), or
copy this file and edit its rules: the engine loads an edited file under a
module name of its own, and `mmlogic(File)` names this folder there, so a
copy's reexport of mmlogic(questions) still finds the questions. The
questions label the first argument of a secret(Pegs, Marks, Counts) term:
keep that shape, or define questions of your own. In a plain swipl, give
the folder yourself: `swipl -p mmlogic=mm_logic/encodings`.

@see questions.pl (in this folder): the questions.
@see mastermind.lp (in this folder): the same game in ASP, for clingo.
*/

                 /*******************************
                 *     THE SECRET AND ITS RULES *
                 *******************************/

%!  secret(+Rules, -Secret) is det.
%
%   Secret is an unknown code of Rules: one variable per peg with its
%   domain of colours, and for every colour the number of pegs holding it,
%   at most Repeat. Secret is the term secret(Pegs, Marks, Counts): Marks
%   holds, per colour, the 0/1 indicators "peg P has this colour" that the
%   feedback constraints add up; Counts holds their sums.
%
%   ```
%   ?- secret(rules(2, 3, 1), S), all(S, inf, Codes).
%   Codes = [[0,1],[0,2],[1,0],[1,2],[2,0],[2,1]].
%   ```

secret(rules(Length, Colours, Repeat), secret(Pegs, Marks, Counts)) :-
    length(Pegs, Length),
    Last is Colours - 1,
    Pegs ins 0..Last,
    numlist(0, Last, Palette),
    maplist(marks(Pegs), Palette, Marks),
    Limit is min(Repeat, Length),
    maplist(colour_count(Limit), Marks, Counts),
    implied_total(Counts, Length).

% The counts add up to Length (every peg has one colour): implied, and stated
% so that propagation sees it, so that answers about colour counts that cannot
% add up fail at once. Rules that admit no code keep a secret with no code.
implied_total(Counts, Length) :-
    (   sum(Counts, #=, Length)
    ->  true
    ;   true
    ).

% Marks are the indicators "this peg has colour C", one per peg.
marks(Pegs, C, Marks) :-
    maplist(has_colour(C), Pegs, Marks).

% Mark is 1 if Peg has colour C, else 0 (either one propagates to the other).
has_colour(C, Peg, Mark) :-
    Peg #= C #<==> Mark.

% Count pegs hold the colour: the repetition rule bounds it by Limit.
colour_count(Limit, Marks, Count) :-
    Count in 0..Limit,
    sum(Marks, #=, Count).

%!  pegs(+Secret, -Pegs) is det.
%
%   Pegs is the list of the secret's peg variables, first peg first: post
%   more constraints on them to play a variant.
%
%   ```
%   ?- secret(rules(3, 2, 3), S), pegs(S, [P1, P2, P3]), P1 #= P3,
%      count(S, N).
%   N = 4.
%   ```

pegs(secret(Pegs, _Marks, _Counts), Pegs).


                 /*******************************
                 *           FEEDBACK           *
                 *******************************/

%!  feedback(+Secret, +Entry) is semidet.
%
%   Constrain Secret to answer Entry, under the feedback rule the entry's
%   shape names: black(Guess, Black) (--feedback black), marks(Guess, Marks)
%   (--feedback positional) or guess(Guess, Black, White) (the standard
%   rule). Fails if propagation already shows that no code does.
%
%   ```
%   ?- secret(rules(4, 6, 4), S), feedback(S, guess([0,0,1,1], 1, 0)),
%      count(S, N).
%   N = 256.
%   ?- secret(rules(4, 6, 4), S), feedback(S, marks([0,0,1,1], [x,-,o,-])),
%      count(S, N).
%   N = 16.
%   ```

% the codemaker said the guess is the code (a feedback rule of your own, whose
% told(Guess, Numbers) entries your encoding states: docs/encodings.md)
feedback(secret(Pegs, _Marks, _Counts), won(Guess)) :-
    maplist(#=, Pegs, Guess).
% ... or that it is not (every told(Guess, Numbers) entry comes with it)
feedback(secret(Pegs, _Marks, _Counts), missed(Guess)) :-
    foldl(differs, Pegs, Guess, 0, Differences),
    Differences #>= 1.
% black pegs only: the pegs where the secret has the guess's colour
feedback(secret(_Pegs, Marks, _Counts), black(Guess, Black)) :-
    foldl(same_place(Marks), Guess, Blacks, 1, _),
    sum(Blacks, #=, Black).
feedback(secret(Pegs, Marks, _Counts), marks(Guess, Given)) :-
    % x: the secret has the guess's colour on this peg; o and -: it has not
    maplist(in_place, Pegs, Guess, Given),
    % the marks of the other pegs, colour by colour, left to right
    pairs_keys_values(Pairs, Guess, Given),
    exclude(right_place, Pairs, Others),
    sort(1, @=<, Others, ByColour),          % stable: pegs stay left to right
    group_pairs_by_key(ByColour, Groups),
    maplist(elsewhere(Marks, Given), Groups).
% black and white pegs
feedback(secret(_Pegs, Marks, Counts), guess(Guess, Black, White)) :-
    % black: the pegs where the secret has the guess's colour
    foldl(same_place(Marks), Guess, Blacks, 1, _),
    sum(Blacks, #=, Black),
    % black + white: per colour, the pegs the guess and the secret can pair
    msort(Guess, Sorted),
    clumped(Sorted, Offered),
    maplist(paired(Counts), Offered, Pairs),
    Common is Black + White,
    sum(Pairs, #=, Common).


                 /*******************************
                 *             LIES             *
                 *******************************/

%!  feedback(+Secret, +Entry, +Most, +Lies0, -Lies) is semidet.
%
%   As feedback/2 in a game where the codemaker may answer at most Most
%   guesses wrongly (--lies): the entry's constraint is reified, Lies is
%   Lies0 plus 1 when Secret does not answer Entry as told, and at most Most.
%   The win is always told: an entry of the win binds as feedback/2 does,
%   and a guess told anything else is not the secret, whatever the answer.
%   Under the built-in feedback rules (a rule of your own: feedback/2 only).
%
%   ```
%   ?- secret(rules(4, 6, 4), S), feedback(S, guess([0,0,1,1], 1, 0), 1, 0, L1),
%      feedback(S, guess([2,3,4,5], 0, 2), 1, L1, _), count(S, N).
%   N = 508.
%   ```

feedback(Secret, Entry, _Most, Lies, Lies) :-
    won(Entry),
    !,
    feedback(Secret, Entry).
feedback(Secret, Entry, Most, Lies0, Lies) :-
    arg(1, Entry, Guess),
    feedback(Secret, missed(Guess)),
    told(Secret, Entry, Truth),
    Lies #= Lies0 + (1 - Truth),
    Lies #=< Most.

% The entry tells the win: every peg in place.
won(guess(Guess, Black, _)) :- length(Guess, Black).
won(black(Guess, Black)) :- length(Guess, Black).
won(marks(_, Marks)) :- maplist(==(x), Marks).

% Truth is 1 when the secret gives the entry's guess the feedback it tells,
% else 0: the constraints of feedback/2, reified.
told(secret(_Pegs, Marks, _Counts), black(Guess, Black), Truth) :-
    foldl(same_place(Marks), Guess, Blacks, 1, _),
    sum(Blacks, #=, Placed),
    Truth #<==> (Placed #= Black).
told(secret(_Pegs, Marks, Counts), guess(Guess, Black, White), Truth) :-
    foldl(same_place(Marks), Guess, Blacks, 1, _),
    sum(Blacks, #=, Placed),
    msort(Guess, Sorted),
    clumped(Sorted, Offered),
    maplist(paired(Counts), Offered, Pairs),
    sum(Pairs, #=, Shared),
    Common is Black + White,
    Truth #<==> (Placed #= Black #/\ Shared #= Common).
told(secret(Pegs, Marks, _Counts), marks(Guess, Given), Truth) :-
    maplist(in_place_told, Pegs, Guess, Given, Places),
    pairs_keys_values(Pairs, Guess, Given),
    exclude(right_place, Pairs, Others),
    sort(1, @=<, Others, ByColour),
    group_pairs_by_key(ByColour, Groups),
    maplist(elsewhere_told(Marks, Given), Groups, Elsewhere),
    append(Places, Elsewhere, Truths),
    foldl(and, Truths, 1, Truth).

% Each of the positional rule's constraints, reified (see in_place/3 and elsewhere/3).
in_place_told(Peg, C, x, T) :- !, T #<==> (Peg #= C).
in_place_told(Peg, C, _, T) :- T #<==> (Peg #\= C).
elsewhere_told(Marks, All, C-Given, T) :-
    nth0(C, Marks, ColourMarks),
    pairs_keys_values(Placed, ColourMarks, All),
    exclude(right_place, Placed, Beyond),
    pairs_keys(Beyond, Held),
    sum(Held, #=, Left),
    (   append(Os, Dashes, Given),
        maplist(==(o), Os),
        maplist(==(-), Dashes)
    ->  length(Os, K),
        (   Dashes == []
        ->  T #<==> (Left #>= K)
        ;   T #<==> (Left #= K)
        )
    ;   T = 0                                % an o after a -: never told truly
    ).

and(T, T0, T1) :- T1 #<==> (T0 #/\ T).

% Peg got mark x (the guess's colour C) or another (not C).
in_place(Peg, C, x) :- !, Peg #= C.
in_place(Peg, C, _) :- Peg #\= C.

% Count the pegs where the secret differs from the guess.
differs(Peg, C, D0, D) :-
    Peg #\= C #<==> Different,
    D #= D0 + Different.

% A pair whose value is the mark x.
right_place(_-x).

% Colour C got Given marks (o or -) on the guess's pegs that are not x: the
% secret holds C beyond those x pegs exactly as often as the o marks if some
% peg got -, at least as often otherwise. An o after a - of the same colour
% never occurs.
elsewhere(Marks, All, C-Given) :-
    nth0(C, Marks, ColourMarks),
    pairs_keys_values(Placed, ColourMarks, All),
    exclude(right_place, Placed, Beyond),
    pairs_keys(Beyond, Held),
    sum(Held, #=, Left),
    append(Os, Dashes, Given),
    maplist(==(o), Os),
    maplist(==(-), Dashes),
    !,
    length(Os, K),
    (   Dashes == []
    ->  Left #>= K
    ;   Left #= K
    ).

% Mark: "the secret's peg P has colour C", for the guess's colour C on peg P.
same_place(Marks, C, Mark, P, P1) :-
    nth0(C, Marks, ColourMarks),
    nth1(P, ColourMarks, Mark),
    P1 is P + 1.

% The guess offers colour C on Offer pegs: Paired = min(Offer, secret's count).
% Where the secret cannot hold more than Offer pegs of C it is the count.
paired(Counts, C-Offer, Paired) :-
    nth0(C, Counts, Count),
    (   fd_sup(Count, Most), Most =< Offer
    ->  Paired = Count
    ;   Paired #= min(Offer, Count)
    ).
