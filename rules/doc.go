// Package rules is boardd's four-player chess engine: board geometry,
// pieces, positions, legal moves, check, mate and elimination, scoring,
// draws, FEN4 and perft. It does no I/O, keeps no time and starts no
// goroutines.
//
// # Layers
//
// From the bottom up; each layer uses only those below it.
//
//   - Geometry and pieces (geometry.go, piece.go, square/): the board as
//     data — any set of playable squares on a grid up to 16×16, barriers
//     between squares — in a padded 20×20 mailbox so that no move
//     generator tests an edge, stored in 512 cells so that an index
//     masked with cellMask needs no bounds check.
//   - Variant (variant.go): a rule system as data — seats, pawn
//     directions, promotion and double-step squares, turn order, who
//     captures and checks whom, options — compiled into lookup tables.
//     configs/variants/NAME.yaml fills it (package rules/variants).
//   - Position (position.go, movegen.go, perft.go, fen4.go,
//     notation.go, explain.go, swap.go, armies.go): one position,
//     make/unmake, pseudo-legal and legal moves, the last ply counted
//     without generating it (CountLegal), FEN4, move text, and why a move
//     is refused; the move forms and mechanics a hook may switch on (the
//     swap, an army played by another seat).
//   - Game (game.go, draw.go, notes.go): everything above movement for
//     chess.com's Teams and FFA — checkmate and when it counts,
//     elimination, points, draws, resignation, time-outs, takeback and
//     the history.
//   - Hooks (hooks.go): what a variant's data cannot say. Each variant
//     file that needs rules of its own has one hook: a type that embeds
//     HookBase, registers a maker, says what it Provides and implements
//     only that. The hook lives in a package of its own under rules/
//     (stevenson.yaml → rules/stevenson, verney.yaml → rules/verney,
//     russian-fortress.yaml → rules/fortress, essay-*.yaml → rules/essay,
//     chess4*.yaml → rules/chess4, blocking-double.yaml →
//     rules/blocking). The core asks the hooks (Variant.hook,
//     HookOf); it never tests a variant's name or mode beyond chess.com's
//     Teams and FFA. A hook's per-game state (HookState) is kept with
//     every turn and restored by Takeback and LookAhead.
//   - Hook options: a hook's own keys in the variant file (pawn_leap,
//     no_king_capture, each seat's fortress, …) are a typed struct in the
//     hook's package (verney.Options, stevenson.Options, fortress.Options,
//     essay.Options, chess4.Options, blocking.Options). The package
//     registers a reader (RegisterOptions) that reads them through an
//     OptionSource (the loader, with file, line and key in its errors);
//     ReadHookOptions stores them on the Variant and HookOptions returns
//     them. Adding a variant's option touches only its package and its
//     YAML.
//
// Variant keeps as core data only what several variants or the core
// itself read:
//
//   - OrdinaryKings: Compile clears the check tables from it, so that
//     neither the attack tables nor the plain count treat a king as royal
//     (Stevenson's; package verney refuses it with its rules).
//   - KingCaptureGreys: the move generator judges a king capture's
//     legality with the captured army already inert (chess.com FFA, and
//     Chess4's mode); package verney refuses it too.
//   - PromotedWorthOne: the game layer's scoring of FFA and the essay's
//     FFA, and the =D of FEN4 and move text.
//   - KingCaptureRemovesArmy: Make and the game layer take a captured
//     king's army off the board (the essay's games, the fortress, blocking
//     double), a rule of the core that several hooks rely on.
//
// The engine for a bot (package engine) uses the core API: Variant,
// ParseFEN4, Position (LegalMoves, CountLegal, Make, Unmake, InCheck,
// Turn, Perft) and Game (Play, LegalMoves, Status, Result, Takeback,
// LookAhead). Game offers only what every variant shares (and, for
// hooks, the operations of hookapi.go); a variant's own operations on a
// game (blocking double's Announce and Reply, Chess4's Controller and
// KeepArmy) are methods of its hook, reached bound to the game with
// HookIn[*blocking.BlockingDouble](g) or HookIn[*chess4.Chess4Hook](g).
//
// # Variant packages
//
// A variant is a package under rules/ that registers itself, as a switch
// driver registers with sensors: its init calls RegisterHook (a maker that
// returns the hook when a compiled variant's data calls for it) and
// RegisterOptions (a reader of the variant file's own keys into the
// package's Options type). Package rules/shipped lists the shipped
// variant packages in one block of blank imports, and the loader
// (rules/variants) imports it; a variant file whose package is not linked
// in fails to load, naming a key nobody reads (or, for a mode, the modes
// known). The core imports no variant package and names none, neither the
// package nor its hook type nor its hook's ID (rules/shipped's tests check
// both), so it builds and its tests pass with any variant package removed
// (TestCoreWithoutEachVariant builds and tests it so, with go build
// -overlay).
//
// What a hook package uses of the core, beyond the Hook interface, HookBase,
// the Hook* lookups and the core API (Position, Game, Variant and their
// exported fields), is a small surface (hookapi.go), none of it on the
// plain hot path:
//
//   - registration: RegisterHook, RegisterOptions, RegisterMode (a mode
//     beyond Teams and FFA, named by its key in the variant file),
//     RegisterResultTag (a mode's own PGN4 Result tag), OptionSource,
//     ReadBools and BoolKey, HookOptions, HookStateIn (a hook's state in a
//     game);
//   - cells, the index of the padded mailbox that the hook methods take:
//     CellOf, SquareOf, CellStride, LineStep, Dir.Step, Dir.Opposite,
//     Dir.PawnCaptureSteps, Move.FromCell, Move.ToCell, NewMove, KindName;
//   - the variant's tables: PlayableCells, IsPromotionCell, HasWalls,
//     Walled, Partner, Captures, AttacksKing, PawnDir, and, from
//     Hook.Compile, AddPawnAttack (to teach the attack tests a pawn attack
//     of the hook's), AddLeaper (a slider that also jumps as a knight),
//     ForbidCapture and EnableInheritance (armies.go: an army played on
//     by a partner); CornerCells; Copy, a copy to change and Compile for
//     one game (Game.PlayBy);
//   - the position: OnCell, PieceCells, KingCell, NextSeat, SetTurn,
//     OutSeats, SetOut, SetOutSeats, SetCastling, Revive,
//     EnPassantCells, ClearEnPassant, AddPawnMove, PawnPushes,
//     QueenMoves, PieceAttacks, Lift (on a copy, for a what-if),
//     Consistent (for a hook's tests), and the one extension slot for a
//     hook's own position state (Ext, SetExt, PositionExt; Make and
//     Unmake tell the hook through OnEnPassant);
//   - the swap, a move form of the core (swap.go) that a hook generates
//     and plays: NewSwap, Move.IsSwap, Position.MakeSwap and UnmakeSwap;
//   - the game, for a hook's Settle and the like: LivePosition (the game's
//     own position, not a copy), PositionBefore (the history's),
//     PlayBy, SetStatus, Eliminate, KnockOut, Checkmate, RemoveArmy,
//     Reduced, SideOf, OpponentOf, HasMoves, TimesSeen, QuietMoves, End,
//     EndShared, CheckDraws, and between turns SetTurnAfter, Resnap,
//     AddNote, AddTurnNote and ParseSeat (a hook's notes).
//
// To add a variant: its YAML in configs/variants, a package
// rules/NAME with its hook and Options (and its Mode, where its game
// layer is not Teams' or FFA's), a line in rules/shipped; where a
// hook needs more of the core, an exported accessor in hookapi.go, never a
// test of the variant in a core file.
//
// # The hot path
//
// Position.LegalMoves, CountLegal, PseudoLegal, Make, Unmake and the
// attack tests run millions of times a second (perft, the bot's search).
// What may go there:
//
//   - no allocation, no interface call and no map lookup on the plain
//     path: a variant's rules enter only behind a bit of Variant.provides
//     (or a table a hook filled in Compile, such as the leaper table), so
//     a variant without hooks pays one predictable branch; a move of a
//     hook's own kind (the essay's pawn swap) carries the hook flag and
//     a label (hookMove, swap.go), and Make and Unmake hand it to the hook
//     (OnMakeMove);
//   - what the hot path needs is computed in Variant.Compile from what
//     the hooks provide (plainCount, pawnHooks, oddLeaps), never from a
//     hand-kept list of variant flags;
//   - work that does not change between sibling nodes is done once in
//     the parent: perft's last two plies (perftLastTwo) find the next
//     seat's slider checks and pins once and walk them again only after
//     a move that touches the king's lines;
//   - any change there is checked against the golden perft table
//     (rules/variants/testdata/golden-perft.tsv, every variant) and the
//     independent reference counts (rules/testdata), and measured with
//     BenchmarkPerft (-benchmem) against the commit before it.
package rules
