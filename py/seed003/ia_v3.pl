/*  Seed 003's guesser: "ia - version 3.0.pl", transcribed to run on SWI-Prolog 9.

    Origin: Joël Foutelet, "Un mastermind en Prolog" (9 July 2012), section
    IV-B "L'I.A.", file 'ia - version 3.0.pl' (shared/seeds/003_*.txt). The
    page says its sources are free of rights ("libres de droits") to use as
    one pleases.

    Its algorithm is kept as it is: the first guess is random; every later
    guess posts, for each played guess, the count of well-placed and of
    misplaced pegs as CLP(FD) constraints over the new code (counted pair by
    pair with choice points, which is right only without duplicates), and
    takes the first code labeling([ff]) finds. The game state lives in the
    dynamic predicates guess/2 and parametres/3, which the seed's client
    (mastermind-client.pl, talking to a socket server) asserts and retracts;
    py/seed003_vs_swipl.py plays that client's part instead, in-process
    through janus.

    Changes, only what SWI-Prolog 9 needs to load and run it:
      - library(lambda) is not shipped with SWI-Prolog any more: its two
        lambdas are written with library(yall). `\X^(X is random(Max))`
        becomes `{Max}/[X]>>(X is random(Max))`: yall compiles lambdas when
        the file loads, and a variable of the clause (Max) is only shared
        with the lambda when it is listed in {...}.
      - `:- encoding(utf8).` because the source has accented letters.
      - This header. The code and its French comments are otherwise verbatim.
*/

:- encoding(utf8).
:- module('ia.pl', [bulls_and_cows/1]).
:- use_module(library(clpfd)).
:- use_module(library(yall)).

% pour mémoriser les propositions et réponses précédentes
:- dynamic guess/2.

% Parametres du moteur de creation / evaluation
% parametre(proposition, Chiffres, Doubles)
:- dynamic parametres/3.

/******************************************************
% exemple
%
% (parametres(5, 8, non)
%
% longueur de la proposition 5
%
% 8 chiffres autorisés 1 ==> 8
%
% Tous les chiffres sont différents
%
*******************************************************/

bulls_and_cows(Guess) :-
	(   tirage(Ms)
	->  Guess = Ms
	;   Guess = 'Désolé, je ne trouve pas de solution !').


% tirage(-)
tirage(Ms) :-
        % On charge les propositions dejà faites
        % La première est tirée au sort
        % les suivantes dépendent des résultats des tirages précédents
        (  bagof([P, R], guess(P,R), Propositions)
        ->  tirage(Propositions, Ms)
        ;   % Pas de solution existante
            tirage_1(Ms)),
        !.

% le premier tirage
% tirage_1(-)
tirage_1(Solution):-
	parametres(Len, Digits, Doubles),
	length(Solution, Len),
	Max is Digits,
	repeat,
		maplist({Max}/[X]>>(X is random(Max)), Solution),
	(   Doubles = non -> all_distinct(Solution); true).


% tirage(+,-)
tirage(L, Ms) :-
	parametres(Len_Proposition, Lettres, Doubles),
	length(Ms, Len_Proposition),

	% la proposition Lettres lettres,
	% donc contient les nombres 0 -> Lettres - 1
	Lettres_1 is Lettres - 1,
	Ms ins 0..Lettres_1,
	(   Doubles = non -> all_distinct(Ms); true),

	% poste les constraintes
	maplist(placees(Ms), L),

	% calcule une solution acceptable
	% la première est retenue
	labeling([ff], Ms).



% placees(+, +])
placees(Sol, [Prop, [BP, MP]]) :-
	V #= 0,

	% calcule les nombres bien placés
	compte_bien_placees(Sol, Prop, V, BP1),
	BP1 #= BP,

	% calcule les nombres mal placés
	compte_mal_placees(Sol, Prop, 0, V, MP1),
	MP1 #= MP .


%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%
%
% compte_mal_placees(+, +, +, +, -).
% @arg1 : la solution à créer
% @arg2 : Proposition déjà faite
% @arg3 : numéro du premier nombre de la proposition précédente
% @arg4 : compteur courant de nombres mal placés
% @arg5 : compteur fianl de nombres mal placés
%
%
compte_mal_placees(_, [], _, MP, MP).

compte_mal_placees(Sol, [H | T], N, MPC, MPF) :-
	compte_une_mal_placee(H, N, Sol, 0,  0, VF),
	MPC1 #= MPC + VF,
	N1 is N+1,
	compte_mal_placees(Sol, T, N1, MPC1, MPF).


% Ici on travaille sur un nombre d'une proposition déjà faite
% on passe en revue la proposition à créer
% compte_une_mal_placee(+, +, +, +, -).
% @arg1 : le nombre
% @arg2 : le rang de ce nombre
% @arg3 : la proposition à créer
%         on travaille sur chaque nombre de cette proposition
% @arg4 : rang du premier nombre de cette proposition
% @arg5 : compteur courant du nombre mal placé
% @arg6 : compteur final du nombre mal placé
%
compte_une_mal_placee(_H, _N, [], _, TT, TT).

% nombre au même endroit, on continue
compte_une_mal_placee(H, NH, [_H1 | T], NH, TTC, TTF) :-
	NH1 is NH + 1, !,
	compte_une_mal_placee(H, NH, T, NH1, TTC, TTF).

% même nombre à deux endroits différents
% on augmente le compteur et on continue
compte_une_mal_placee(H, NH, [H1 | T], NH1, TTC, TTF) :-
	H #= H1,
	NH \= NH1,
	NH2 is NH1 + 1,
	TTC1 #= TTC + 1,
	compte_une_mal_placee(H, NH, T, NH2, TTC1, TTF).

% nombres différents on continue
compte_une_mal_placee(H, NH, [H1 | T], NH1, TTC, TTF) :-
	H #\= H1,
	NH2 is NH1 + 1,
	compte_une_mal_placee(H, NH, T, NH2, TTC, TTF).


%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%
%
% compte_bien_placees(+, +, +, -)
% @arg1 : proposition à créer
% @arg2 : proposition déjà faite
% @arg3 : compteur courant du nombre bien placé
% @arg4 : compteur final du nombre bien placé
%
compte_bien_placees([], [], MP, MP).

compte_bien_placees([H | T], [H1 | T1], MPC, MPF) :-
	H #= H1,
	MPC1 #= MPC + 1,
	compte_bien_placees(T, T1, MPC1, MPF).

compte_bien_placees([H | T], [H1 | T1], MPC, MPF) :-
	H #\= H1,
	compte_bien_placees(T, T1, MPC, MPF).
