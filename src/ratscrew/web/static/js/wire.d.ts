// Generated from the server's dataclasses by `python -m ratscrew.web.typescript`: do not edit by hand.
// What a room's websocket carries both ways and what the JSON API answers, as the server writes it
// (ratscrew/shapes.py writes and reads every one of these by the same type hints). The page's own types,
// and the documents whose shape another part of the server owns, are in types.d.ts, which re-exports these.
import type { CardText, GameEvent, RulesDoc } from "./types.js";

export type ServerMessage = WelcomeMessage | SeatedMessage | LobbyMessage | EventsMessage | StateMessage | RejectedMessage | ErrorMessage | OverMessage | PongMessage | ProbeMessage | LatencyMessage | ReactionMessage | RatedMessage;

export type ClientMessage = HelloRequest | PingRequest | EchoRequest | FlipRequest | SlapRequest | ResyncRequest | SitRequest | StandRequest | ReadyRequest | SeatsRequest | BotRequest | RulesRequest | VisibilityRequest | StartRequest | RematchRequest | PauseRequest | ReactRequest;

/** `POST /api/games`: a game against the computer, and this browser's seat token. (web.games.CreatedGame) */
export interface CreatedGame {
  id: string;
  token: string;
  /** the seats the token holds */
  seats: number[];
}

/** `POST /api/games/{id}/again`: the next game of the same table (the same token plays it). (web.games.NextGame) */
export interface NextGame {
  id: string;
  token: string;
}

/** `POST /api/rooms`: a new room, and the host's token for seat 0. (web.online.CreatedRoom) */
export interface CreatedRoom {
  code: string;
  token: string;
  seat: number;
}

/** `GET /api/rooms`: the public rooms still in their lobby. (web.online.RoomList) */
export interface RoomList {
  rooms: OpenRoom[];
}

/** `GET /api/rooms/{code}`: whether a room by that code is there, and where it stands. (web.online.RoomInfo) */
export interface RoomInfo {
  code: string;
  phase: "lobby" | "playing" | "over";
  public: boolean;
}

/** A public room still in its lobby, as the open lobby lists it. (rooms.runner.OpenRoom) */
export interface OpenRoom {
  code: string;
  seats: number;
  /** seats nobody holds yet */
  free: number;
  /** the host's name */
  host: string;
  preset: string;
}

/** `GET /api/history?ids=...`: the finished games among the ids, newest first. (web.history.HistoryAnswer) */
export interface HistoryAnswer {
  games: HistoryGame[];
  /** ids not finished (still played, or never finished) */
  unknown: string[];
  /** Ids not looked up: the address asked for too many unknown ids lately (ask again in a minute). */
  unchecked: string[];
}

/** `POST /api/replay?start=&count=`: a page of steps, and the whole game's facts. (web.history.ReplayPage) */
export interface ReplayPage {
  total: number;
  start: number;
  steps: ReplayStep[];
  /** the steps that are a slap */
  slaps: number[];
  players: string[];
  rules: RulesDoc;
  /** the state after the record's last action */
  final: FinalState;
}

/** One score-keeper match with its rounds, as the page shows it: the stored fields plus leaders, draws and the
 * rules spelled out, and whether the caller's keys let it change the match (without, a phone watches).
 * (web.scores.MatchShown) */
export interface ScoreMatch {
  id: string;
  name: string;
  players: string[];
  rules: RulesDoc;
  timer_s: number;
  round_started: number | null;
  remaining_s: number | null;
  finished: boolean;
  created: number;
  updated: number;
  rounds: ScoreRound[];
  wins: number[];
  leaders: number[];
  draws: number;
  /** every rules key with its value */
  rules_values: { [key: string]: boolean | number | string };
  decks: number;
  deck_size: number;
  timer_running: boolean;
  can_change: boolean;
}

/** `POST /api/matches`: the new match, and its owner key (given this once). (web.scores.CreatedMatch) */
export interface CreatedMatch extends ScoreMatch {
  key: string;
}

/** `GET /api/matches`: one page of the list, and where the next starts (null: no more). (web.scores.MatchPage) */
export interface MatchPage {
  matches: MatchListItem[];
  next: string | null;
}

/** The account a browser is signed in to, as its own pages show it. (web.accounts.SignedIn) */
export interface SignedIn {
  name: string;
}

/** `GET /api/account` and every account route: who is signed in (null: nobody), and the token each change for that
 * account must carry in its X-CSRF-Token header. (web.accounts.AccountAnswer) */
export interface AccountAnswer {
  account: SignedIn | null;
  csrf: string | null;
}

/** `GET /api/players/{name}`: a player's profile. (web.profiles.PlayerAnswer) */
export interface PlayerAnswer {
  name: string;
  ratings: PlayerRating[];
  games: SizeGames[];
  median_reaction_ms: number | null;
  reactions: number;
  slaps_won: number;
  wrong_slaps: number;
  chances: number;
  missed: number;
  patterns: MissedPattern[];
}

/** `GET /api/leaderboard?size=...`: one size class's established players best first, the provisional ones apart
 * (best first too). (web.profiles.LeaderboardAnswer) */
export interface LeaderboardAnswer {
  size_class: "2" | "3+";
  established: Ranked[];
  provisional: Ranked[];
}

/** The pool a person waits in: the table size, rated or not, and the rules' preset. (web.playnow.PlayNowPool) */
export interface PlayNowPool {
  size: "2" | "3-4";
  rated: boolean;
  preset: string;
}

/** A seat at the table the matchmaker found: the room's code, the seat, and the token that holds it.
 * (web.playnow.PlayNowTicket) */
export interface PlayNowTicket {
  room: string;
  seat: number;
  token: string;
}

/** Where a person stands in Play now: nowhere, waiting in a pool (for how long, and whether computers may take the
 * empty seats now), at a table whose room is being opened, or placed at it with their ticket.
 * (web.playnow.PlayNowAnswer) */
export interface PlayNowAnswer {
  where: "nowhere" | "waiting" | "seating" | "placed";
  pool: PlayNowPool | null;
  waited_s: number;
  computers: boolean;
  ticket: PlayNowTicket | null;
  /** a guest's queue token, in the join's answer: their page sends it with every request */
  token: string | null;
}

/** The answer to `hello`: the whole room as this page may see it. (rooms.wire.server.Welcome) */
export interface WelcomeMessage {
  type: "welcome";
  v: number;
  room: RoomDoc;
  /** the seats this page's token holds */
  yours: number[];
  host: boolean;
  /** the number of the last event */
  seq: number;
  /** how many events follow for a page that reconnected; null: start from this state */
  missed: number | null;
  /** the table, or {} before the first game */
  state: RoomState;
  /** the last game's, once it is over */
  summary: GameSummary | null;
  /** since protocol 6: the last game's rating changes, once recorded */
  rated: RatingChange[] | null;
}

/** The seats this page holds now, and the token that holds them (null: it watches). (rooms.wire.server.Seated) */
export interface SeatedMessage {
  type: "seated";
  seats: number[];
  token: string | null;
}

/** The room changed: seats, rules, phase, or who is connected. (rooms.wire.server.Lobby) */
export interface LobbyMessage {
  type: "lobby";
  room: RoomDoc;
}

/** Numbered game events, and the table's state after them. (rooms.wire.server.Events) */
export interface EventsMessage {
  type: "events";
  items: EventItem[];
  state: RoomState;
}

/** The whole state, for a page too far behind for the events it missed (or a table just dealt).
 * (rooms.wire.server.StateMsg) */
export interface StateMessage {
  type: "state";
  seq: number;
  state: RoomState;
  room: RoomDoc;
}

/** An input that was not taken: a code for the page's texts, words for the log, the seat the text names.
 * (rooms.wire.server.RejectedMsg) */
export interface RejectedMessage {
  type: "rejected";
  /** the room's refusal, or the table's */
  code: "not_host" | "not_seated" | "seat_taken" | "not_ready" | "wrong_phase" | "bad_value" | "paused" | "no_pause" | "not_saving" | "too_fast" | "game_over" | "waiting" | "not_your_turn" | "cannot_slap" | "not_yours";
  reason: string;
  seat: number | null;
}

/** A message that could not be read, or a limit reached: one line saying what was wrong.
 * (rooms.wire.server.ErrorMsg) */
export interface ErrorMessage {
  type: "error";
  message: string;
}

/** The game ended: its summary. (rooms.wire.server.Over) */
export interface OverMessage {
  type: "over";
  summary: GameSummary;
}

/** The answer to a page's `ping`. (rooms.wire.server.Pong) */
export interface PongMessage {
  type: "pong";
  id: number;
}

/** Sent every two seconds; the page answers `echo` with the same id. (rooms.wire.server.Probe) */
export interface ProbeMessage {
  type: "probe";
  id: number;
}

/** Only the measured delays moved: each seat's (null where nothing is measured), the window, whom it waits for.
 * (rooms.wire.server.Latency) */
export interface LatencyMessage {
  type: "latency";
  seats: (number | null)[];
  window_ms: number | null;
  waits_for: number | null;
}

/** A player's quick reaction, for every page to show by their seat for a moment (kept nowhere, never resent).
 * (rooms.wire.server.ReactionMsg) */
export interface ReactionMessage {
  type: "reaction";
  /** the sender's, where every page shows it */
  seat: number;
  reaction: ReactionCode;
}

/** A rated game was recorded: each signed-in player's rating before and after it (sent a moment after `over`, which
 * it belongs with). (rooms.wire.server.Rated) */
export interface RatedMessage {
  type: "rated";
  game: string;
  changes: RatingChange[];
}

/** The first message of every connection: the protocol version, the seat token this page holds (if any), and the
 * last event number it saw (when it reconnects), so it is sent exactly what it missed. (rooms.wire.client.Hello) */
export interface HelloRequest {
  type: "hello";
  v: number;
  token: string | null;
  /** -1: a new page */
  since: number;
}

/** Answered at once with `pong`: the page's own view of its delay. (rooms.wire.client.Ping) */
export interface PingRequest {
  type: "ping";
  id: number;
}

/** The page's answer to the server's `probe`: proof the page is there, and a round trip for the record.
 * (rooms.wire.client.Echo) */
export interface EchoRequest {
  type: "echo";
  id: number;
}

/** rooms.wire.client.FlipMsg. */
export interface FlipRequest {
  type: "flip";
  seat: number;
}

/** `card`: the number of the card the slap reacts to (the pile the player saw); `rt`: the reaction time the page
 * measured from that card's first paint. (rooms.wire.client.SlapMsg) */
export interface SlapRequest {
  type: "slap";
  seat: number;
  card: number | null;
  /** reaction time the page measured, in ms */
  rt: number | null;
}

/** Send again every event after number `since`. (rooms.wire.client.Resync) */
export interface ResyncRequest {
  type: "resync";
  since: number;
}

/** Take an empty seat. (rooms.wire.client.Sit) */
export interface SitRequest {
  type: "sit";
  seat: number;
  name: string;
}

/** Leave the seat this page holds. (rooms.wire.client.Stand) */
export interface StandRequest {
  type: "stand";
}

/** rooms.wire.client.Ready. */
export interface ReadyRequest {
  type: "ready";
  ready: boolean;
}

/** The host's: how many seats the table has. (rooms.wire.client.SetSeats) */
export interface SeatsRequest {
  type: "seats";
  count: number;
}

/** The host's: a computer at `level` in an empty seat (`level` null empties the seat again).
 * (rooms.wire.client.SetBot) */
export interface BotRequest {
  type: "bot";
  seat: number;
  level: string | null;
  /** in the host's language; empty: "Computer N" */
  name?: string;
}

/** The host's: the rules to play (checked by the rules reader when applied). (rooms.wire.client.SetRules) */
export interface RulesRequest {
  type: "rules";
  rules: unknown;
}

/** The host's: whether the room is listed in the open lobby. (rooms.wire.client.SetVisibility) */
export interface VisibilityRequest {
  type: "visibility";
  public: boolean;
}

/** The host's: deal, once every seat is taken and every person is ready. (rooms.wire.client.Start) */
export interface StartRequest {
  type: "start";
}

/** After a game, a player brings everyone back to the lobby. (rooms.wire.client.Rematch) */
export interface RematchRequest {
  type: "rematch";
}

/** Stop (or restart) the table's clock: only in a game against the computer or two on one screen.
 * (rooms.wire.client.Pause) */
export interface PauseRequest {
  type: "pause";
  paused: boolean;
}

/** A quick reaction from a player, shown by their seat on every page: one of a fixed few, never free text.
 * (rooms.wire.client.React) */
export interface ReactRequest {
  type: "react";
  reaction: ReactionCode;
}

/** One finished game on the history page. (web.history.HistoryGame) */
export interface HistoryGame {
  id: string;
  /** when it ended and was saved, in seconds since 1970 */
  played: number;
  result: "win" | "draw" | "loop" | "limit";
  winner: number | null;
  how: "all_cards" | "last_in" | "time" | "card_limit" | "loop" | null;
  reason: string;
  cards: number;
  tricks: number;
  ms: number;
  players: HistoryPlayer[];
}

/** One step of a replayed game: the action, its events and the table after them. A slap's step also has the pile it
 * landed on (`landed`, bottom first), so the viewer can show the slapped pile before it is taken, and a wrong one
 * what it reacted to (`seen`: the pile it saw, and the card that covered its pattern if it was late).
 * (web.history.ReplayStep) */
export interface ReplayStep {
  index: number;
  /** the record's document of the action (null: step 0, the deal) */
  action: unknown;
  t: number | null;
  events: GameEvent[];
  view: GameView;
  landed: CardText[] | null;
  seen: SlapSeen | null;
}

/** The state after a record's last action, as `ratscrew replay --json` prints it. (record.StateJson) */
export interface FinalState {
  status: "over" | "playing";
  result: string | null;
  winner: number | null;
  hands: string[][];
  pile: string[];
  burned: string[];
  out: number[];
  turn: number;
  owed: number;
  collect_pending: number | null;
  cards: number;
  tricks: number;
}

/** One round of a score-keeper match. (web.store.Round) */
export interface ScoreRound {
  number: number;
  /** null: a draw */
  winner: number | null;
  /** each player's cards when a timed round ended */
  cards: number[] | null;
}

/** A match in the list: enough to pick it and see the score, without its rounds. (web.scores.MatchListItem) */
export interface MatchListItem {
  id: string;
  name: string;
  players: string[];
  wins: number[];
  leaders: number[];
  rounds: number;
  preset: string;
  timer_s: number;
  finished: boolean;
  created: number;
  updated: number;
}

/** A player's rating in one size class now, and its history, oldest first. (web.profiles.PlayerRating) */
export interface PlayerRating {
  size_class: "2" | "3+";
  shown: number;
  provisional: boolean;
  games: number;
  history: RatingPoint[];
}

/** The games a player finished at tables of one size class (rated or not). (web.profiles.SizeGames) */
export interface SizeGames {
  size_class: "2" | "3+";
  games: number;
  wins: number;
  rated: number;
}

/** A pattern the player had chances at: how many, how many they let go, and the drill that trains it.
 * (web.profiles.MissedPattern) */
export interface MissedPattern {
  pattern: string;
  chances: number;
  missed: number;
  /** null: no drill deals this pattern */
  drill: DrillLink | null;
}

/** A player on a leaderboard. (web.profiles.Ranked) */
export interface Ranked {
  name: string;
  shown: number;
  games: number;
}

/** The room as pages see it: its lobby, and the decision window while a game is played.
 * (rooms.wire.server.RoomView) */
export interface RoomDoc {
  code: string;
  phase: "lobby" | "playing" | "over";
  public: boolean;
  /** a computer may hold a dropped player's seat */
  standins: boolean;
  pausable: boolean;
  seats: SeatDoc[];
  /** the whole rule set */
  rules: RulesDoc;
  preset: string;
  /** the id of the room's current or last game ("ABCD", "ABCD-2" for a rematch) */
  game: string | null;
  /** the decision window, while a game is played */
  window_ms: number | null;
  /** the seat whose slow link widens it */
  waits_for: number | null;
  /** in the lobby after a game, the seat that asked for the rematch */
  rematch_by: number | null;
  /** the seat the host holds (null: the host watches) */
  host_seat: number | null;
  /** Since protocol 6: a room the Play-now matchmaker made for its table (it starts once everyone is there, with
   * no host and no lobby settings), and whether its game counts for the ratings. */
  matched: boolean;
  rated: boolean;
}

export type RoomState = TableState | NoTable;

/** The end of a game: the outcome, each player's piles, wrong slaps and reactions, every close race.
 * (rooms.wire.summary.GameSummary) */
export interface GameSummary {
  /** the game's id */
  game: string;
  result: "win" | "draw" | "loop" | "limit";
  winner: number | null;
  /** in words, for programs' readers */
  reason: string;
  how: "all_cards" | "last_in" | "time" | "card_limit" | "loop" | null;
  cards: number;
  tricks: number;
  /** the game's length on its clock */
  ms: number;
  players: SummaryPlayer[];
  out_order: number[];
  races: Race[];
}

/** What a rated game did to one signed-in player's rating, as everyone at the table sees it: the numbers people
 * read (never an account's id), by seat. (rooms.wire.server.RatingChange) */
export interface RatingChange {
  seat: number;
  before: number;
  after: number;
  /** after this game */
  provisional: boolean;
  /** a stand-in played this seat for a while after its person left: ranked last */
  left: boolean;
}

/** A numbered game event, as everyone at the table may see it (face-down cards are not named).
 * (rooms.wire.server.EventItem) */
export interface EventItem {
  /** numbered per room, across its games */
  seq: number;
  /** the room's game number */
  game: number;
  /** the game's time, in ms */
  t: number;
  event: GameEvent;
  /** With a wrong slap, what it reacted to: the card, the pile it landed on, and the patterns the pile showed at
   * that card and the card that covered them when it came too late; else null. */
  seen: SlapSeen | null;
}

/** The quick reactions a player may send: a fixed few a card table says aloud, never free text (nothing to
 * moderate, and every page shows each in its own language). (rooms.wire.codes.Reaction) */
export type ReactionCode = "hi" | "nice" | "wow" | "oops" | "close" | "wait" | "gg";

/** One player of a finished game: the summary's figures, with how many reaction times and their median.
 * (web.history.HistoryPlayer) */
export interface HistoryPlayer {
  seat: number;
  name: string;
  /** the computer's level, or null for a person */
  bot: string | null;
  cards: number;
  piles_by_slap: number;
  piles_by_challenge: number;
  wrong_slaps: number;
  median_reaction_ms: number | null;
  reactions: number;
}

/** What one seat (or a spectator) may see of the game: the face-up pile, the stacks' sizes, whose turn.
 * (rooms.wire.state.GameView) */
export interface GameView {
  /** null: a spectator */
  seat: number | null;
  /** bottom first */
  pile: CardText[];
  /** burned cards, when the rules turn them face up (slaps.burned_count) */
  burned_visible: CardText[];
  burned_count: number;
  stack_sizes: number[];
  out: boolean[];
  /** Per seat, how long its slaps are set aside after a wrong slap under a lockout: so many more cards turned,
   * until a pile is won ("pile"), or not at all (null). */
  locked: Lockout[];
  turn: number;
  owed: number;
  challenger: number | null;
  collect_pending: number | null;
  cards: number;
  tricks: number;
  over: boolean;
}

/** The pile a slap landed on and the one its player saw, when they differ. (table.seen.SlapSeen) */
export interface SlapSeen {
  /** the number of the card the slap reacted to */
  card: number;
  /** the pile's top cards when the slap landed, bottom first */
  pile: CardText[];
  /** the patterns the pile showed at `card`, since covered */
  missed: PatternMatch[];
  /** the card turned just after `card`, when it was covered */
  covered_by: CardText | null;
}

/** One rated game of a rating's history: the number shown before it and after it, and how it moved.
 * (web.profiles.RatingPoint) */
export interface RatingPoint {
  /** the first game's is where the chart starts (a newcomer's starting number) */
  before: number;
  shown: number;
  change: number;
  /** among the game's signed-in players */
  place: number;
  players: number;
  /** seconds since 1970 */
  when: number;
}

/** A drill that trains a pattern: its kind and the preset whose patterns it deals (the page picks it).
 * (web.profiles.DrillLink) */
export interface DrillLink {
  kind: string;
  preset: string;
}

/** One seat as every page sees it. (rooms.wire.server.SeatView) */
export interface SeatDoc {
  kind: "empty" | "human" | "bot";
  name: string;
  /** a computer's level */
  level: string | null;
  ready: boolean;
  /** a person's page is open (a computer always is) */
  connected: boolean;
  /** the measured one-way delay of its best page */
  latency_ms: number | null;
  /** a computer holds the seat while its person is away */
  standin: boolean;
}

/** The table as a room sends it: the view, and the table's clocks. (rooms.wire.state.TableState) */
export interface TableState extends GameView {
  /** the table's clock, in ms since the deal */
  now: number;
  collect_delay_ms: number;
  /** the decision window: the table holds every input this long */
  hold_ms: number;
  paused: boolean;
}

/** A room with no game dealt yet: its state is an empty object. (rooms.wire.state.NoTable) */
export type NoTable = Record<string, never>;

/** rooms.wire.summary.SummaryPlayer. */
export interface SummaryPlayer {
  seat: number;
  name: string;
  /** the computer's level, or null for a person */
  bot: string | null;
  cards: number;
  piles_by_slap: number;
  piles_by_challenge: number;
  wrong_slaps: number;
  reaction_ms: number[];
  median_reaction_ms: number | null;
}

/** A card several people slapped, the slaps in the order they landed. (rooms.wire.summary.Race) */
export interface Race {
  card: number;
  slaps: RaceSlap[];
}

export type Lockout = number | "pile" | null;

/** A pattern that matched: its key (`sandwich`), the cards that make it (bottom first), why, and where those cards
 * lie in the pile the pattern was shown (`positions`, indices from the bottom, one per card). A page marks the
 * cards by their positions, so it never needs to know which patterns take the bottom card. A match read back from
 * an event's JSON has no positions (the events name the cards, which is what a page shows of them); they take no
 * part in comparisons. (patterns.Match) */
export interface PatternMatch {
  pattern: string;
  cards: CardText[];
  why: string;
  positions?: number[];
}

/** How one slap of a race was timed: what arrived, what was believed, and the landing time credited.
 * (rooms.wire.summary.RaceSlap) */
export interface RaceSlap {
  seat: number;
  /** the number of the card it reacted to */
  card: number | null;
  /** the event that judged it, if any came */
  verdict: "slap_correct" | "wrong_slap" | "slap_dismissed" | null;
  received: number;
  /** when the card it reacts to was sent to this page */
  sent: number | null;
  /** what the page reported */
  reaction: number | null;
  reported_lag: number | null;
  /** the server's own measure of this connection's round trip: the bound */
  rtt: number | null;
  /** before this slap */
  quota: number;
  compensation: number;
  landed: number;
  /** Kept since protocol 4; a summary kept before lacks them. the page's own answers to the probes: recorded,
   * never believed */
  echo_rtt: number | null;
  /** the kernel's round trip of the TCP connection */
  tcp_rtt: number | null;
}
