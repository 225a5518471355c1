// The page's own types, for TypeScript's checker only: the browser never loads this file (JSDoc `@import` lines
// are comments), so nothing here runs. What a room's websocket carries and what the JSON API answers as a
// dataclass is generated from the server's classes into wire.d.ts (`python -m ratscrew.web.typescript`), and
// re-exported here, so pages import every type from "./types.js". What is declared here by hand (the
// documents whose shape the rules, the engine and the Learn pages own, and the page's own interfaces) is
// checked against real answers and the golden corpus by tests/web/test_page_types.py.

export * from "./wire.js";
import type {
  ClientMessage,
  ErrorMessage,
  EventItem,
  GameSummary,
  LatencyMessage,
  PatternMatch,
  RatedMessage,
  ReactionMessage,
  RejectedMessage,
  RoomDoc,
  RoomState,
  SeatDoc,
  SeatedMessage,
  StateMessage,
  TableState,
  WelcomeMessage,
} from "./wire.js";

/** A seat's index at the table, from 0. */
export type Seat = number;
/** A card in the short notation: "7S", "TD" (ten of diamonds), "X" (a joker). The referee also takes a bare rank. */
export type CardText = string;

// ---------------------------------------------------------------------------------------- rules

/** One option's value: a switch, a count or a named choice. */
export type RuleValue = boolean | number | string;
/** One section of the rules, option name to value: `{"double": true, "run": 3}`. */
export type RulesSection = { [name: string]: RuleValue };
/** A rule set as the server writes it (rules/io.py `rules_to_mapping`): the preset's name and one table per
 * section; a section left out keeps the preset's values. */
export interface RulesDoc {
  preset: string;
  /** A section by its name (the sections below, as the option list names them). */
  [section: string]: RulesSection | string | undefined;
  slaps?: RulesSection;
  challenge?: RulesSection;
  slapping?: RulesSection;
  players?: RulesSection;
  deck?: RulesSection;
  end?: RulesSection;
}
/** The rules as flat "section.name" keys (rules/model.py `Rules.values`). */
export type FlatRules = { [key: string]: RuleValue };

// ---------------------------------------------------------------------------------------- GET /api/meta

interface OptionBase {
  key: string;
  section: string;
  name: string;
  default: RuleValue;
  /** In the page's language. */
  summary: string;
  allowed: string;
  /** Whether people at a real table agree on it (the score keeper offers only those). */
  table: boolean;
  /** Whether its summary says more than its short label (a form's hint under it). */
  hint: boolean;
  /** Only for an option that depends on another. */
  needs?: OptionNeeds;
}
export interface BoolOption extends OptionBase {
  kind: "bool";
}
export interface IntOption extends OptionBase {
  kind: "int";
  minimum: number;
  maximum: number;
}
export interface ChoiceOption extends OptionBase {
  kind: "choice";
  choices: { value: string | number; label: string }[];
}
/** An option that only applies while another holds one of some values (rules/options.py `Needs`): a form
 * greys it out otherwise, and sets it to `off` when that is not null (the rules refuse it on its own). */
export interface OptionNeeds {
  /** The first of `keys`. */
  key: string;
  /** It applies while any of these holds one of `values` (and itself applies). */
  keys: string[];
  values: RuleValue[];
  off: RuleValue | null;
}
/** One house rule (web/meta.py `option_doc`). */
export type OptionDoc = BoolOption | IntOption | ChoiceOption;

export interface PresetDoc {
  name: string;
  label: string;
  summary: string;
  rules: RulesDoc;
}

/** What every page knows from the start (web/meta.py `meta`), in the chosen language. */
export interface Meta {
  lang: string;
  languages: { code: string; name: string }[];
  options: OptionDoc[];
  /** The sections the score keeper asks about, in order (rules/sections.py `TABLE_SECTIONS`). */
  table_sections: string[];
  presets: PresetDoc[];
  levels: { name: string; label: string; summary: string }[];
  patterns: { key: string; label: string }[];
  /** How many letters and digits a room's code has. */
  room_code_length: number;
  /** The server's version and the commit it was built from ("unknown" where it cannot tell). */
  version: string;
  commit: string;
}

// ---------------------------------------------------------------------------------------- pages

/** What app.js hands each page. */
export interface PageContext {
  meta: Meta;
  lang: string;
  /** Go to an address (`#/scores/...`); the same address is shown again. */
  navigate(hash: string): void;
  /** Show the current address again (after a change of language, say). */
  refresh(): void;
  /** The route's groups; an optional group that did not match is undefined. */
  params: readonly (string | undefined)[];
}
/** What a page's render may give back: a function that undoes what it set up outside its view. */
export type Cleanup = (() => void) | null | undefined | void;
/** Every module under pages/ exports render. */
export interface PageModule {
  render(view: HTMLElement, ctx: PageContext): Cleanup | Promise<Cleanup>;
}

// ---------------------------------------------------------------------------------------- POST /api/rules/summary

export interface SummarySlap {
  key: string;
  name: string;
  sentence: string;
  rule: string;
  example: CardText[];
  example_text: string;
}
export interface SummaryChange {
  key: string;
  value: RuleValue;
  label: string;
  value_label: string;
  chip: string;
  /** Whether people at a real table agree on it (timing only a computer measures is not). */
  table: boolean;
}
/** The rules in brief for so many players (learn/summary.py `rules_summary`). */
export interface RulesSummary {
  lang: string;
  players: number;
  preset: { name: string; label: string; summary: string; changed: boolean; text: string; changes_text: string };
  slaps: SummarySlap[];
  no_slaps: string;
  chips: string[];
  changes: SummaryChange[];
  challenge: string;
  penalty: string;
  lines: string[];
  deck: { decks: number; jokers: number; jokers_total: number; cards: number; auto: boolean; text: string; line: string };
  /** A player without cards under these rules: the words on their seat (`mine`) and on anyone else's (`seat`),
   * and the notice their own page shows (`you`, with `{slap}` for the page's Slap button and key; `you_out`). */
  empty: EmptyWords;
}

export interface EmptyWords {
  mine: string;
  seat: string;
  you: string;
  you_out: string;
}

// ---------------------------------------------------------------------------------------- engine events

interface OutcomeBase {
  /** In words, for programs' readers. */
  reason: string;
  how: "all_cards" | "last_in" | "time" | "card_limit" | "loop" | null;
  loop: { prefix_cards: number; prefix_tricks: number; cycle_cards: number; cycle_tricks: number } | null;
}
/** How a game ended (engine/outcome.py): a win always names its winner. */
export type Outcome =
  | (OutcomeBase & { result: "win"; winner: Seat })
  | (OutcomeBase & { result: "draw" | "loop" | "limit"; winner: null });

// One type per engine/events.py class, as `to_dict` writes it. Cards that lie face down at a real table
// come to an online page as null (rooms/core.py `public`); a record and the replay keep them.
export interface CardTurned {
  kind: "card_turned";
  seat: Seat;
  card: CardText;
  number: number;
}
export interface ChallengeOpened {
  kind: "challenge_opened";
  seat: Seat;
  card: CardText;
  payer: Seat;
  owed: number;
  passed_on: boolean;
}
export interface DebtPassed {
  kind: "debt_passed";
  from_seat: Seat;
  to_seat: Seat;
  owed: number;
}
export interface ChallengeWon {
  kind: "challenge_won";
  seat: Seat;
  how: "paid" | "ran_out" | "unopposed" | "last_card";
}
export interface ChallengeStopped {
  kind: "challenge_stopped";
  seat: Seat;
  reason: "ten" | "challenger_out" | "winner_out";
}
export interface SlapCorrect {
  kind: "slap_correct";
  seat: Seat;
  matches: PatternMatch[];
}
export interface WrongSlap {
  kind: "wrong_slap";
  seat: Seat;
  burned: (CardText | null)[];
  given: [Seat, CardText | null][];
}
/** A slap set aside without effect (engine/events.py `DismissReason`): not a wrong slap. */
export interface SlapDismissed {
  kind: "slap_dismissed";
  seat: Seat;
  reason: "late" | "already_sharing" | "locked_out" | "once_per_card";
}
export interface PileWon {
  kind: "pile_won";
  seat: Seat;
  /** `given`: a wrong slap gave the pile away (slapping.penalty = give-pile). */
  how: "slap" | "challenge" | "last_in" | "given";
  cards: (CardText | null)[];
  /** Who took how many cards: one pair, or several when a tied slap split the pile. */
  shares: [Seat, number][];
}
export interface PlayerOut {
  kind: "player_out";
  seat: Seat;
  reason: "empty" | "wrong_slap" | "missed_slap";
}
export interface GameOver {
  kind: "game_over";
  outcome: Outcome;
}
export type GameEvent =
  | CardTurned
  | ChallengeOpened
  | DebtPassed
  | ChallengeWon
  | ChallengeStopped
  | SlapCorrect
  | WrongSlap
  | SlapDismissed
  | PileWon
  | PlayerOut
  | GameOver;

// ---------------------------------------------------------------------------------------- the table and the socket

/** What table.js `createTable` is given: how to send a page's message, and the summary's buttons. */
export interface TableOptions {
  send(message: ClientMessage): unknown;
  /** The buttons and links under a game's summary, for the seats this page plays. */
  actions?(summary: GameSummary, yours: Seat[]): (Node | null)[];
}
/** The live table (table.js `createTable`), shared by a game against the computer and an online room. */
export interface Table {
  element: HTMLElement;
  /** The seats, the seats this page plays, the rules, and which game of the room (a new one: a clean table). */
  /** `tags`: chips said before the rules' own (a Play-now table's "Rated"), always in sight */
  setup(seats: SeatDoc[], yours: Seat[], rules: RulesDoc, game?: string | null, tags?: string[]): void;
  setSeats(seats: SeatDoc[]): void;
  setPausable(pausable: boolean): void;
  setLatencies(latencies: (number | null)[]): void;
  /** A whole state; `animate: false` when it replaces the table (a reload, a page that fell behind). */
  update(state: RoomState | null, options?: { animate?: boolean; noteworthy?: boolean }): void;
  /** New numbered events, in order, then the state after them. */
  apply(items: EventItem[], state: RoomState): void;
  rejected(message: RejectedMessage): void;
  showSummary(summary: GameSummary): void;
  hideSummary(): void;
  toast(text: string, tone: "good" | "bad" | "info" | "muted"): void;
  /** The room's socket went down (false) or was welcomed again (true): the table says so and takes no plays. */
  setConnected(up: boolean): void;
  readonly state: TableState | null;
  readonly yours: Seat[];
  destroy(): void;
}

/** What a page does with a room's messages (connection.js `openRoom`); each is optional. */
export interface RoomHandlers {
  welcome?(message: WelcomeMessage): void;
  /** New events only, in order, and the state after them. */
  events?(items: EventItem[], state: RoomState): void;
  state?(message: StateMessage): void;
  lobby?(room: RoomDoc): void;
  latency?(seats: LatencyMessage["seats"], message: LatencyMessage): void;
  seated?(message: SeatedMessage): void;
  rejected?(message: RejectedMessage): void;
  error?(message: ErrorMessage): void;
  over?(summary: GameSummary): void;
  /** A player's quick reaction. */
  reaction?(message: ReactionMessage): void;
  /** A rated game was recorded: each signed-in player's rating before and after it. */
  rated?(message: RatedMessage): void;
  status?(connected: boolean): void;
  /** There is no such room. */
  gone?(): void;
}
/** One room's websocket, reconnecting on its own (connection.js `openRoom`). */
export interface RoomConnection {
  /** False when the socket is not open (the message is dropped). */
  send(message: ClientMessage): boolean;
  /** Ask for everything after the last event applied. */
  resync(): boolean;
  ping(): boolean;
  readonly lastSeq: number;
  readonly token: string | null;
  close(): void;
}

// ---------------------------------------------------------------------------------------- HTTP answers

/** POST /api/check (web/referee.py): is the pile slappable, and by which patterns. */
export interface RefereeAnswer {
  slappable: boolean;
  patterns: string[];
  matches: MatchDoc[];
}

// ---------------------------------------------------------------------------------------- GET /api/learn

/** One rules key beside an explanation (learn/words.py `key_doc`): its value and that value in words. */
export interface KeyDoc {
  key: string;
  /** The key's short name for players. */
  name: string;
  value: RuleValue;
  label: string;
  default: RuleValue;
  /** The standard value in words, as `label` says the value in force. */
  default_label: string;
  changed: boolean;
}
/** A pattern found in an example pile, named in the page's language (learn/examples.py `match_doc`). */
export interface MatchDoc extends PatternMatch {
  name: string;
  /** Where its cards lie in the pile, from the bottom (patterns.py `Match.positions`). */
  positions: number[];
}
/** An example pile, bottom first, with the engine's verdict (learn/examples.py). */
export interface ExampleDoc {
  type: "example";
  cards: CardText[];
  /** The pattern the example is meant to show (null: none in particular). */
  shows: string | null;
  caption: string;
  slappable: boolean;
  patterns: string[];
  matches: MatchDoc[];
  verdict: string;
}
/** What a court card (or a joker) demands (learn/rules_page.py `demand_rows`). */
export interface DemandRow {
  card: CardText;
  rank: string;
  name: string;
  demand: number;
  text: string;
}
/** A block of a section of the rules page, by `type` (learn/rules_page.py). */
export type LearnBlock =
  | { type: "p" | "note"; text: string }
  | { type: "list"; items: string[] }
  | { type: "demands"; rows: DemandRow[]; caption: string }
  | {
      type: "walkthrough";
      id: string;
      title: string;
      players: string[];
      /** Each player's hand, top card first. */
      deal: CardText[][];
      steps: { seat: Seat; name: string; card: CardText; owed: number; text: string }[];
      /** The seat that wins the last pile (null: none yet). */
      winner: Seat | null;
    }
  | { type: "pattern"; key: string; name: string; rule: string; examples: ExampleDoc[]; keys: KeyDoc[] }
  | ExampleDoc
  | { type: "off"; text: string; items: { key: string; name: string; summary: string }[] };
export interface LearnSection {
  id: string;
  title: string;
  keys: KeyDoc[];
  blocks: LearnBlock[];
}
/** One house rule in the rules page's table (learn/rules_page.py). */
export interface HouseOption extends KeyDoc {
  summary: string;
  /** A choice's values in words. */
  choices?: string[];
  /** A count's least and greatest value. */
  range?: [number, number];
}
export interface CheatBlock {
  id: string;
  title: string;
  items: string[];
  demands?: DemandRow[];
  patterns?: { key: string; name: string; short: string; example: ExampleDoc | null }[];
}
export interface CardEntry {
  rank: string;
  symbol: string;
  card: CardText;
  name: string;
  kind: "number" | "court" | "joker";
  kind_label: string;
  demand: number;
  /** The words a filter may match: names and symbols in every language, lower case. */
  search: string[];
  /** `pattern`: the slap pattern a fact tells of, if any. */
  facts: { text: string; example?: ExampleDoc | null; pattern?: string }[];
}
export interface FaqQuestion {
  id: string;
  q: string;
  a: string[];
  /** What the question comes to under the chosen rules. */
  now?: string | null;
  keys: KeyDoc[];
}
export interface FaqVariant {
  id: string;
  title: string;
  text: string;
  preset?: string | null;
  preset_label?: string | null;
  keys: KeyDoc[];
}
/** Everything the Learn pages show, in one language, for one rule set (learn/document.py `learn_document`). */
export interface LearnDoc {
  lang: string;
  preset: string;
  preset_label: string;
  preset_summary: string;
  presets: { name: string; label: string; summary: string }[];
  /** The keys whose values differ from the preset. */
  changes: FlatRules;
  rules: {
    title: string;
    lede: string;
    sections: LearnSection[];
    house: { id: "house"; title: string; intro: string; groups: { section: string; title: string; options: HouseOption[] }[] };
  };
  cheatsheet: {
    title: string;
    subtitle: string;
    blocks: CheatBlock[];
    changed: (KeyDoc & { summary: string })[];
  };
  cards: { title: string; intro: string; cards: CardEntry[] };
  faq: {
    title: string;
    intro: string;
    questions: FaqQuestion[];
    variants_title: string;
    variants_intro: string;
    variants: FaqVariant[];
  };
}

// ---------------------------------------------------------------------------------------- GET /api/drills/<kind>

/** A button of a question drill; `key` is the key that presses it. */
export interface DrillChoice {
  value: string;
  label: string;
  key: string;
}
interface DrillBase {
  seed: number;
  preset: string;
  lang: string;
  question: string;
  choices: DrillChoice[];
}
/** Count the debt (learn/drills.py `debt_drill`): the cards played so far, and who owes or wins what. */
export interface DebtQuestion extends DrillBase {
  kind: "debt";
  /** What is asked: how many cards are owed, or who wins the pile. */
  ask: "owed" | "winner";
  /** Each player's hand, top card first. */
  deal: CardText[][];
  players: { seat: Seat; name: string; cards_left: number }[];
  plays: { seat: Seat; name: string; card: CardText; demand: number; text: string }[];
  steps: string[];
  answer: string;
  why: string;
}
/** Is it slappable? (learn/drills.py `slap_drill`): a pile, bottom first, and the patterns in it ("none"). */
export interface SlapQuestion extends DrillBase {
  kind: "slap";
  pile: CardText[];
  answer: string[];
  matches: MatchDoc[];
  why: string[];
  /** The pattern the pile was built around (null: a pile of no pattern). */
  built_on: string | null;
  /** The pile was made to look like that pattern, and is not one. */
  near: boolean;
}
export type DrillQuestion = DebtQuestion | SlapQuestion;
/** Slap or not, timed (learn/drills.py `stream_drill`): cards one at a time, each pile ending on a pattern. */
export interface StreamDrill {
  kind: "stream";
  seed: number;
  preset: string;
  lang: string;
  cards: { card: CardText; patterns: string[]; matches: MatchDoc[]; reset: boolean }[];
  /** How many top cards to show: as many as the patterns in play look at. */
  shown: number;
  interval_ms: number;
  /** `bottom`: the pattern joins the pile's bottom card to the top (the page shows the bottom card too). */
  patterns: { key: string; name: string; bottom: boolean }[];
  question: string;
}

// ---------------------------------------------------------------------------------------- the window

declare global {
  interface Window {
    /** Safari before 14.1 named the audio context so. */
    webkitAudioContext?: typeof AudioContext;
    /** What sound.js played, for the tests. */
    ratscrewSounds?: { count: number; names: string[] };
  }
}
