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
//     notation.go, explain.go): one position, make/unmake, pseudo-legal
//     and legal moves, the last ply counted without generating it
//     (CountLegal), FEN4, move text, and why a move is refused.
//   - Game (game.go, draw.go, notes.go): everything above movement for
//     chess.com's Teams and FFA — checkmate and when it counts,
//     elimination, points, draws, resignation, time-outs, takeback and
//     the history.
//   - Hooks (hooks.go): what a variant's data cannot say. Each variant
//     file that needs rules of its own has one Go file named after it
//     (russian-fortress.yaml → russian_fortress.go, stevenson.yaml →
//     stevenson.go, verney.yaml → verney.go, chess4*.yaml → chess4.go and
//     chess4_ep.go, blocking-double.yaml → blocking.go, essay-*.yaml →
//     essay.go) holding a hook: a type that embeds HookBase, registers a
//     maker, says what it Provides and implements only that. The core
//     asks the hooks (Variant.hook, HookOf); it never tests a variant's
//     name or mode beyond chess.com's Teams and FFA. A hook's per-game
//     state (HookState) is kept with every turn and restored by Takeback
//     and LookAhead.
//   - Hook options: a hook's own keys in the variant file (pawn_leap,
//     no_king_capture, each seat's fortress, …) are a typed struct in the
//     hook's file (VerneyOptions, Chess4Options, StevensonOptions,
//     FortressOptions, EssayOptions, BlockingOptions). The hook file
//     registers a reader (registerOptions) that reads them through an
//     OptionSource (the loader, with file, line and key in its errors);
//     ReadHookOptions stores them on the Variant and HookOptions returns
//     them. Adding a variant's option touches only its hook file and its
//     YAML.
//
// Variant keeps as core data only what several variants or the core
// itself read:
//
//   - OrdinaryKings: Compile clears the check tables from it, so that
//     neither the attack tables nor the plain count treat a king as royal
//     (Stevenson's; verney.go refuses it with its rules).
//   - KingCaptureGreys: the move generator judges a king capture's
//     legality with the captured army already inert (chess.com FFA, and
//     Chess4's mode); verney.go refuses it too.
//   - PromotedWorthOne: the game layer's scoring of FFA and the essay's
//     FFA, and the =D of FEN4 and move text.
//   - KingCaptureRemovesArmy: Make and the game layer take a captured
//     king's army off the board (the essay's games, the fortress, blocking
//     double), a rule of the core that several hooks rely on.
//
// The engine for a bot (package engine) uses the core API: Variant,
// ParseFEN4, Position (LegalMoves, CountLegal, Make, Unmake, InCheck,
// Turn, Perft) and Game (Play, LegalMoves, Status, Result, Takeback,
// LookAhead). Game offers only what every variant shares; a variant's own
// operations on a game (blocking double's Announce and Reply, Chess4's
// Controller and KeepArmy) are methods of its hook, reached bound to the
// game with HookIn[*BlockingDouble](g) or HookIn[*Chess4Hook](g).
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
//     the hook's label (hookMove), and Make and Unmake hand it to the hook
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
