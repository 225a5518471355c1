/*
 * One complete Egyptian Ratscrew game between computer players, on virtual time, in C.
 *
 * This is a line-by-line port of three Python modules working together: the engine
 * (ratscrew/engine/game.py), the table that runs it on timers (ratscrew/table/table.py, driven as
 * ratscrew.table.table.run_virtual drives it) and the computer players (ratscrew/bots/). It exists for the
 * lab (`ratscrew simulate`), which plays many thousands of games and only wants their figures; the Python
 * modules stay the reference, and ratscrew/lab/kernel.py decides which games this file may play.
 *
 * "The same game" is meant literally: the deal is the project's SplitMix64 + Fisher-Yates shuffle, each
 * bot draws from its own SplitMix64 stream in the order the Python bot draws, timers fire in the order of
 * (time, number of the timer) as the table's heap pops them, reaction times use the same double
 * arithmetic in the same order (libm log, cos and sqrt; Python's round() is rint() under the default
 * rounding mode), so the per-game figures and the event stream agree exactly. The event stream is
 * summarised as the FNV-1a 64-bit hash that ratscrew.lab.kernel.event_hash defines, computed only when
 * asked for.
 *
 * The caller describes the rules and the seats once, as a packed array of doubles, field by field in the
 * order of the lists below; the module exports those lists by name, and ratscrew/lab/kernel.py packs by them.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define MAX_SEATS 12
#define RING 128 /* a stack's ring buffer: more places than the 108 cards two decks with jokers hold */
#define MAX_TOTAL 108
#define MAX_TIMERS 256 /* live timers: a flip, a slap per bot, and the pauses still pending */
#define MAX_STEPS 10000000LL /* run_virtual's max_steps: clock advances before it gives up */
#define MAX_NOTES 64

/* ------------------------------------------------------------------ what the caller must agree on
 *
 * Every list below is written once, as an X-macro, and exported by name when the module loads (see
 * PyInit__ers_fast): ratscrew/lab/kernel.py packs the configuration by these names and compares the enums and
 * patterns with its own, so a field, a value or an order that differs between the two sides is found before a
 * game is played, never read as the wrong number.
 *
 * The rules keys (RULE_FIELDS, with an enum of the places of each choice), the patterns (PATTERN_LIST) and the
 * engine's enums come from the Python declarations, generated into _ers_rules.h by
 * `python -m ratscrew.lab.kernel_header`; this file implements each pattern as its match_<key> function. */
#include "_ers_rules.h"

/* After the rules: the table and the bots' shared numbers, then (miss factor, extra ms) for each pattern. */
#define TABLE_FIELDS(X) X(PLAYERS, "players") X(BOT_PACE, "bot_pace") X(LONG_MISS, "long_challenge_miss")       \
    X(NEAR_WRONG, "near_miss_wrong")

/* Per seat, after the header. */
#define SEAT_LIST(X)                                                                                             \
    X(REACTION_FIXED, "reaction_fixed") X(MU, "mu") X(SIGMA, "sigma") X(TAU, "tau") X(FLOOR, "floor")          \
    X(FIXED_MS, "fixed_ms") X(MISS, "miss") X(WRONG, "wrong") X(FLIP_MU, "flip_mu")                            \
    X(FLIP_SIGMA, "flip_sigma") X(FLIP_TAU, "flip_tau") X(FLIP_FLOOR, "flip_floor")                            \
    X(STRATEGY, "strategy") /* 0 none, 1 court ranks under the top card, 2 a number of cards */                \
    X(COURTS, "courts")     /* bit r set: rank r counts */                                                      \
    X(MIN_CARDS, "min_cards")

#define AS_CFG(id, ...) CFG_##id,
#define AS_P(id, ...) P_##id,
#define AS_SEAT(id, name) SEAT_##id,
#define AS_ENUM(id, name) id,
enum { RULE_FIELDS(AS_CFG) TABLE_FIELDS(AS_CFG) CFG_DIFFICULTY };
enum { PATTERN_LIST(AS_P) P_COUNT };
enum { CFG_HEADER = CFG_DIFFICULTY + 2 * P_COUNT };
enum { SEAT_LIST(AS_SEAT) SEAT_SIZE };
enum { EVENT_KINDS(AS_ENUM) };
enum { CHALLENGE_WINS(AS_ENUM) };
enum { STOP_REASONS(AS_ENUM) };
enum { DISMISS_REASONS(AS_ENUM) };
enum { WON_BY(AS_ENUM) };
enum { OUT_REASONS(AS_ENUM) };
enum { RESULTS(AS_ENUM) };
enum { ENDINGS(AS_ENUM) };
enum { SUITS(AS_ENUM) };
enum { T_FLIP, T_BOT_SLAP, T_COLLECT, T_SPLIT_CLOSE, T_TIME_LIMIT };

/* A card is rank * 4 + suit (suits S H D C as 0-3); a joker is 0 (rank 0). */
#define RANK(c) ((int)(c) >> 2)
#define R_TEN 10
#define R_JACK 11
#define R_QUEEN 12
#define R_KING 13
#define R_ACE 14

typedef struct {
    /* rules */
    int players;
    int demand[15];
    int next_pays, ten_stops, collect_delay, penalty, penalty_cards, tie_window, tie_split;
    long long lockout_cards;
    int from_bottom, once_per_card, once_table;
    int slap_in, out_when, leader;
    int p_on[P_COUNT];
    int run, run_wrap, ten, ten_gap, burned_count, flush, wildcard, marriage_suits;
    long long time_limit_s, max_cards;
    int decks, jokers;
    double bot_pace;
    double diff_miss[P_COUNT], diff_extra[P_COUNT];
    double long_miss, near_wrong;
    /* seats */
    int fixed[MAX_SEATS];
    double mu[MAX_SEATS], sigma[MAX_SEATS], tau[MAX_SEATS], floor_[MAX_SEATS], fixed_ms[MAX_SEATS];
    double miss[MAX_SEATS], wrong[MAX_SEATS];
    double fmu[MAX_SEATS], fsigma[MAX_SEATS], ftau[MAX_SEATS], ffloor[MAX_SEATS];
    int strategy[MAX_SEATS], courts[MAX_SEATS], min_cards[MAX_SEATS];
} Config;

/* Positions seen between tricks, for the engine's loop detection (rules with no slap pattern at all): an
 * open-addressing set of byte strings kept in one growing arena. */
typedef struct {
    uint64_t *hashes; /* 0: an empty slot */
    uint32_t *offsets;
    uint32_t *lengths;
    size_t cap, count;
    uint8_t *arena;
    size_t used, room;
} Seen;

typedef struct {
    long long at, order;
    int kind, seat;
    long long card;
    long long pile_cards, pile_tricks;
} Timer;

typedef struct {
    const Config *cfg;
    int n;
    /* the engine */
    uint8_t stack[MAX_SEATS][RING];
    unsigned head[MAX_SEATS], tail[MAX_SEATS];
    uint8_t pile[MAX_TOTAL];
    int npile;
    uint8_t burned[MAX_TOTAL];
    int nburned;
    int out[MAX_SEATS];
    int turn, owed, challenger, collect_pending, collect_how;
    long long cards, tricks, now, pile_start;
    int last_flipper;
    int split[MAX_SEATS];
    int nsplit;
    long long split_t0;
    long long locked_until[MAX_SEATS]; /* lockout: the card count from which the seat's slaps count again */
    long long locked_pile[MAX_SEATS];  /* lockout-pile: the tricks count the lock lasts for, or -1 */
    long long paid_at[MAX_SEATS];      /* the card count of the seat's last wrong slap (once_per_card), or -1 */
    long long table_paid_at;           /* the card count of anyone's last wrong slap (scope = table), or -1 */
    int total;
    int over, result, winner;
    /* what the table reacts to after an action: ChallengeWon (seat -1) and SlapCorrect (its seat) */
    int notes[MAX_NOTES];
    int nnotes;
    int broken; /* a state the Python code would have raised on */
    int detect_loops;
    Seen seen;
    /* the table */
    int ntimers;
    long long next_order;
    long long last_t;
    long long key_cards, key_tricks, key_burned;
    uint64_t rng[MAX_SEATS];
    long long last_card[MAX_SEATS];
    /* the figures */
    long long piles_by_slap, piles_by_challenge, wrong_slaps, knocked;
    long long seat_slap_piles[MAX_SEATS], seat_challenge_piles[MAX_SEATS], seat_wrong_slaps[MAX_SEATS];
    int want_hash;
    uint64_t hash;
    Timer timers[MAX_TIMERS]; /* last, and not cleared for a new game: a timer is written whole when set */
} Sim;

/* ------------------------------------------------------------------ SplitMix64 (ratscrew/shuffle.py) */

static inline uint64_t next_u64(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline double random01(uint64_t *state) { return (double)(next_u64(state) >> 11) * (1.0 / 9007199254740992.0); }

static uint64_t below(uint64_t *state, uint64_t n) {
    uint64_t rem = (UINT64_MAX % n + 1) % n; /* 2**64 mod n */
    for (;;) {
        uint64_t draw = next_u64(state);
        if (rem == 0 || draw < (uint64_t)0 - rem) return draw % n;
    }
}

/* ------------------------------------------------------------------ reaction times (bots/reaction.py) */

static long long ex_gaussian(uint64_t *rng, double mu, double sigma, double tau, double floor_, double shift) {
    double u1 = random01(rng);
    if (u1 == 0.0) u1 = 1e-12;
    double u2 = random01(rng);
    double normal = sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
    double exponential = -tau * log(1.0 - random01(rng));
    double x = mu + shift + sigma * normal + exponential;
    double v = x > floor_ ? x : floor_;
    return (long long)nearbyint(v);
}

static long long reaction(Sim *s, int seat, double shift) {
    const Config *c = s->cfg;
    if (c->fixed[seat]) return (long long)c->fixed_ms[seat];
    return ex_gaussian(&s->rng[seat], c->mu[seat], c->sigma[seat], c->tau[seat], c->floor_[seat], shift);
}

static long long flip_delay(Sim *s, int seat) {
    const Config *c = s->cfg;
    long long sample = ex_gaussian(&s->rng[seat], c->fmu[seat], c->fsigma[seat], c->ftau[seat], c->ffloor[seat], 0.0);
    return (long long)((double)sample * c->bot_pace);
}

/* ------------------------------------------------------------------ the event hash */

#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

static inline uint64_t fnv_word(uint64_t h, long long value) {
    uint64_t w = (uint64_t)value;
    for (int i = 0; i < 8; i++) {
        h ^= (w >> (8 * i)) & 0xFF;
        h *= FNV_PRIME;
    }
    return h;
}

static void emit(Sim *s, int kind, int seat, int card, long long a, long long b) {
    if (kind == EV_PILE_WON) {
        if (a == WON_SLAP) {
            s->piles_by_slap++;
            s->seat_slap_piles[seat]++;
        } else if (a == WON_CHALLENGE) {
            s->piles_by_challenge++;
            s->seat_challenge_piles[seat]++;
        }
    } else if (kind == EV_WRONG_SLAP) {
        s->wrong_slaps++;
        s->seat_wrong_slaps[seat]++;
    } else if (kind == EV_PLAYER_OUT && a == OUT_WRONG_SLAP) {
        s->knocked++;
    } else if (kind == EV_CHALLENGE_WON || kind == EV_SLAP_CORRECT) {
        if (s->nnotes < MAX_NOTES) s->notes[s->nnotes++] = kind == EV_CHALLENGE_WON ? -1 : seat;
        else s->broken = 1;
    }
    if (s->want_hash) {
        uint64_t h = s->hash;
        h = fnv_word(h, kind);
        h = fnv_word(h, seat);
        h = fnv_word(h, card);
        h = fnv_word(h, a);
        h = fnv_word(h, b);
        h = fnv_word(h, s->now);
        s->hash = h;
    }
}

/* ------------------------------------------------------------------ stacks */

static inline int stack_len(const Sim *s, int seat) { return (int)(s->tail[seat] - s->head[seat]); }
static inline int stack_pop(Sim *s, int seat) { return s->stack[seat][s->head[seat]++ & (RING - 1)]; }
static inline void stack_push(Sim *s, int seat, int card) { s->stack[seat][s->tail[seat]++ & (RING - 1)] = (uint8_t)card; }
static inline int stack_pop_bottom(Sim *s, int seat) { return s->stack[seat][--s->tail[seat] & (RING - 1)]; }

/* ------------------------------------------------------------------ patterns (ratscrew/patterns.py) */

/* The pattern pile, bottom first: the burned cards (last burned lowest) under the pile with burned_count. */
static inline int pp_len(const Sim *s) { return (s->cfg->burned_count ? s->nburned : 0) + s->npile; }
static inline int pp_at(const Sim *s, int i) {
    int nb = s->cfg->burned_count ? s->nburned : 0;
    return i < nb ? s->burned[nb - 1 - i] : s->pile[i - nb];
}

static inline int same_rank(int a, int b) { return RANK(a) == RANK(b) && RANK(a) != 0; }
static inline int royals(int a, int b) {
    int ra = RANK(a), rb = RANK(b);
    return (ra == R_KING && rb == R_QUEEN) || (ra == R_QUEEN && rb == R_KING);
}
static inline int red(int card) { return (card & 3) == SUIT_H || (card & 3) == SUIT_D; }
/* A King and a Queen of the suits slaps.marriage_suits asks for (patterns._royal_couple). */
static inline int royal_couple(const Config *c, int a, int b) {
    if (!royals(a, b)) return 0;
    if (c->marriage_suits == SLAPS_MARRIAGE_SUITS_SAME_SUIT) return (a & 3) == (b & 3);
    if (c->marriage_suits == SLAPS_MARRIAGE_SUITS_SAME_COLOUR) return red(a) == red(b);
    return 1;
}
static inline int ten_value(const Config *c, int card) {
    int r = RANK(card);
    if (r >= 2 && r <= R_TEN) return r;
    if (r == R_ACE && c->ten == 2) return 1;
    return -1;
}
static inline int sum_to_ten(const Config *c, int a, int b) {
    int va = ten_value(c, a), vb = ten_value(c, b);
    return va >= 0 && vb >= 0 && va + vb == 10;
}

static int run_matches(const Sim *s, int len) {
    int L = s->cfg->run;
    if (L < 2 || len < L) return 0;
    int places[4];
    for (int k = 0; k < L; k++) {
        int card = pp_at(s, len - L + k);
        if (RANK(card) == 0) return 0;
        places[k] = RANK(card) - 2;
    }
    int up = 1, down = 1;
    for (int k = 1; k < L; k++) {
        int step = places[k] - places[k - 1];
        if (s->cfg->run_wrap) {
            step = (step + 13) % 13;
            if (step != 1) up = 0;
            if (step != 12) down = 0;
        } else {
            if (step != 1) up = 0;
            if (step != -1) down = 0;
        }
    }
    return up || down;
}

/* The top `flush` cards are all of one suit (a joker has none). */
static int flush_matches(const Sim *s, int len) {
    int L = s->cfg->flush;
    if (L < 2 || len < L) return 0;
    int suit = pp_at(s, len - L) & 3;
    for (int k = 0; k < L; k++) {
        int card = pp_at(s, len - L + k);
        if (RANK(card) == 0 || (card & 3) != suit) return 0;
    }
    return 1;
}

static inline int six_nine(int a, int b) {
    int ra = RANK(a), rb = RANK(b);
    return (ra == 6 && rb == 9) || (ra == 9 && rb == 6);
}

/* One function per pattern of ratscrew.patterns.PATTERNS (PATTERN_LIST names them): whether the pattern pile,
 * `len` cards long with `top`, `second` and `third` from the top (-1 where the pile is shorter), shows it. */
static int match_double(const Sim *s, int len, int top, int second, int third) {
    (void)s, (void)third;
    return len >= 2 && same_rank(top, second);
}
static int match_sandwich(const Sim *s, int len, int top, int second, int third) {
    (void)s, (void)second;
    return len >= 3 && same_rank(top, third);
}
static int match_top_bottom(const Sim *s, int len, int top, int second, int third) {
    (void)len, (void)second, (void)third;
    return s->npile >= 2 && same_rank(top, pp_at(s, 0));
}
static int match_marriage(const Sim *s, int len, int top, int second, int third) {
    (void)third;
    return len >= 2 && royal_couple(s->cfg, top, second);
}
static int match_divorce(const Sim *s, int len, int top, int second, int third) {
    (void)second;
    return len >= 3 && royal_couple(s->cfg, top, third);
}
static int match_run(const Sim *s, int len, int top, int second, int third) {
    (void)top, (void)second, (void)third;
    return run_matches(s, len);
}
static int match_ten(const Sim *s, int len, int top, int second, int third) {
    (void)third;
    return len >= 2 && sum_to_ten(s->cfg, second, top);
}
static int match_ten_gap(const Sim *s, int len, int top, int second, int third) {
    if (len < 3 || !sum_to_ten(s->cfg, third, top)) return 0;
    return !(s->cfg->ten_gap == SLAPS_TEN_GAP_COURT && RANK(second) < R_JACK);
}
static int match_joker(const Sim *s, int len, int top, int second, int third) {
    (void)s, (void)len, (void)second, (void)third;
    return RANK(top) == 0;
}
static int match_bigmac(const Sim *s, int len, int top, int second, int third) {
    (void)second, (void)third;
    return len >= 4 && same_rank(top, pp_at(s, len - 4));
}
static int match_flush(const Sim *s, int len, int top, int second, int third) {
    (void)top, (void)second, (void)third;
    return flush_matches(s, len);
}
static int match_wildcard(const Sim *s, int len, int top, int second, int third) {
    (void)len, (void)second, (void)third;
    return RANK(top) == s->cfg->wildcard;
}
static int match_six_nine(const Sim *s, int len, int top, int second, int third) {
    (void)s, (void)third;
    return len >= 2 && six_nine(top, second);
}
static int match_top_bottom_ten(const Sim *s, int len, int top, int second, int third) {
    (void)len, (void)second, (void)third;
    return s->npile >= 3 && sum_to_ten(s->cfg, pp_at(s, 0), top);
}

/* Every enabled pattern the pile shows, one bit per pattern. */
static unsigned matches(const Sim *s) {
    const Config *c = s->cfg;
    int len = pp_len(s);
    if (len == 0) return 0;
    int top = pp_at(s, len - 1);
    int second = len >= 2 ? pp_at(s, len - 2) : -1;
    int third = len >= 3 ? pp_at(s, len - 3) : -1;
    unsigned m = 0;
    /* One direct call per pattern (the compiler inlines them), as PATTERN_LIST lists them. */
#define TEST_PATTERN(id, key, test, ...) \
    if (c->p_on[P_##id] && test(s, len, top, second, third)) m |= 1u << P_##id;
    PATTERN_LIST(TEST_PATTERN)
#undef TEST_PATTERN
    return m;
}

/* ------------------------------------------------------------------ the engine (engine/game.py) */

static void gather(Sim *s, const int *seats, int nseats, int how);
static void finish(Sim *s, int result, int winner, int how);
static void collect(Sim *s);
static void mark_out(Sim *s, int seat, int reason);
static void pass_turn(Sim *s, int seat);

static void finish(Sim *s, int result, int winner, int how) {
    s->over = 1;
    s->result = result;
    s->winner = winner;
    s->collect_pending = -1;
    s->nsplit = 0;
    s->owed = 0;
    emit(s, EV_GAME_OVER, winner, -1, result, how);
}

static void last_in(Sim *s, int seat) {
    if (s->npile || s->nburned) {
        int seats[1] = {seat};
        gather(s, seats, 1, WON_LAST_IN);
    }
    finish(s, RES_WIN, seat, END_LAST_IN);
}

static void mark_out(Sim *s, int seat, int reason) {
    s->out[seat] = 1;
    emit(s, EV_PLAYER_OUT, seat, -1, reason, 0);
    if (s->challenger == seat && s->owed) {
        s->owed = 0;
        s->challenger = -1;
        emit(s, EV_CHALLENGE_STOPPED, seat, -1, STOP_CHALLENGER_OUT, 0);
    }
    if (s->collect_pending == seat) {
        s->collect_pending = -1;
        s->nsplit = 0;
        emit(s, EV_CHALLENGE_STOPPED, seat, -1, STOP_WINNER_OUT, 0);
    }
    int still = 0, last = -1;
    for (int i = 0; i < s->n; i++)
        if (!s->out[i]) {
            still++;
            last = i;
        }
    if (still == 1) last_in(s, last);
}

/* The next seat from `start` on that can turn a card, settling empty seats on the way; -1 for none. */
static int settle_from(Sim *s, int start, int skip) {
    int n = s->n;
    for (int step = 0; step < n; step++) {
        int seat = (start + step) % n;
        if (seat == skip) continue;
        if (s->out[seat]) continue;
        if (stack_len(s, seat)) return seat;
        if (!s->cfg->slap_in) {
            mark_out(s, seat, OUT_EMPTY);
            if (s->over) return -1;
        }
    }
    return -1;
}

static inline int next_player(Sim *s, int seat, int include_start) {
    return settle_from(s, (seat + 1) % s->n, include_start ? -1 : seat);
}

/* players.leader = next: the seat after the one who turned the last card (seat 0 before any card). */
static inline int after_last_card(const Sim *s) { return s->last_flipper >= 0 ? (s->last_flipper + 1) % s->n : 0; }

static int peek_leader(const Sim *s, int winner) {
    if (s->cfg->leader == PLAYERS_LEADER_WINNER) return winner;
    if (s->cfg->leader == PLAYERS_LEADER_LEFT) {
        for (int step = 1; step < s->n; step++) {
            int seat = (winner + step) % s->n;
            if (!s->out[seat] && stack_len(s, seat)) return seat;
        }
        return winner;
    }
    int start = after_last_card(s);
    for (int step = 0; step < s->n; step++) {
        int seat = (start + step) % s->n;
        if (!s->out[seat] && (stack_len(s, seat) || seat == winner)) return seat; /* the winner will hold the pile */
    }
    return winner;
}

static int nearest_in(const Sim *s, int seat) {
    for (int step = 0; step < s->n; step++) {
        int t = (seat + step) % s->n;
        if (!s->out[t]) return t;
    }
    return seat;
}

static void gather(Sim *s, const int *seats, int nseats, int how) {
    uint8_t cards[2 * MAX_TOTAL];
    int count = 0;
    for (int i = s->nburned - 1; i >= 0; i--) cards[count++] = s->burned[i];
    for (int i = 0; i < s->npile; i++) cards[count++] = s->pile[i];
    s->npile = 0;
    s->nburned = 0;
    s->tricks++;
    s->pile_start = s->cards;
    int share = count / nseats, extra = count % nseats;
    int start = 0;
    for (int i = 0; i < nseats; i++) {
        int size = share + (i < extra ? 1 : 0);
        for (int k = 0; k < size; k++) stack_push(s, seats[i], cards[start + k]);
        start += size;
    }
    emit(s, EV_PILE_WON, seats[0], -1, how, (long long)count * 16 + nseats);
}

static void check_all_held(Sim *s) {
    if (s->npile || s->nburned || s->collect_pending >= 0) return;
    for (int seat = 0; seat < s->n; seat++)
        if (stack_len(s, seat) == s->total) {
            finish(s, RES_WIN, seat, END_ALL_CARDS);
            return;
        }
}

static void win_challenge(Sim *s, int winner, int how) {
    if (winner < 0) {
        s->broken = 1;
        return;
    }
    s->owed = 0;
    s->challenger = -1;
    s->collect_pending = winner;
    s->collect_how = WON_CHALLENGE;
    s->turn = peek_leader(s, winner);
    emit(s, EV_CHALLENGE_WON, winner, -1, how, 0);
}

static void pass_turn(Sim *s, int seat) {
    int nxt = next_player(s, seat, 1);
    if (s->over) return;
    if (nxt < 0) {
        win_challenge(s, nearest_in(s, s->last_flipper >= 0 ? s->last_flipper : seat), CW_LAST_CARD);
    } else {
        s->turn = nxt;
    }
}

static void payer_ran_out(Sim *s, int payer) {
    const Config *c = s->cfg;
    if (c->next_pays) {
        int nxt = next_player(s, payer, 0);
        if (s->over) return;
        if (nxt >= 0 && nxt != s->challenger) {
            emit(s, EV_DEBT_PASSED, payer, -1, nxt, s->owed);
            s->turn = nxt;
            return;
        }
    } else if (!c->slap_in) {
        mark_out(s, payer, OUT_EMPTY);
        if (s->over) return;
    }
    win_challenge(s, s->challenger, CW_RAN_OUT);
}

static void open_challenge(Sim *s, int seat, int card, int demand) {
    int passed_on = s->owed > 0;
    s->challenger = seat;
    int payer = next_player(s, seat, 0);
    if (s->over) return;
    if (payer < 0) {
        win_challenge(s, seat, CW_UNOPPOSED);
        return;
    }
    s->turn = payer;
    s->owed = demand;
    emit(s, EV_CHALLENGE_OPENED, seat, card, payer, (long long)demand * 2 + passed_on);
}

static void pay(Sim *s, int seat, int card) {
    if (s->challenger < 0) {
        s->broken = 1;
        return;
    }
    if (s->cfg->ten_stops && RANK(card) == R_TEN) {
        s->owed = 0;
        emit(s, EV_CHALLENGE_STOPPED, s->challenger, -1, STOP_TEN, 0);
        s->challenger = -1;
        pass_turn(s, seat);
        return;
    }
    s->owed -= 1;
    if (s->owed == 0) win_challenge(s, s->challenger, CW_PAID);
    else if (!stack_len(s, seat)) payer_ran_out(s, seat);
}

static void out_missed(Sim *s, const int *keep, int nkeep) {
    for (int seat = 0; seat < s->n; seat++) {
        if (s->out[seat] || stack_len(s, seat)) continue;
        int kept = 0;
        for (int k = 0; k < nkeep; k++)
            if (keep[k] == seat) kept = 1;
        if (kept) continue;
        mark_out(s, seat, OUT_MISSED_SLAP);
        if (s->over) return;
    }
}

static void flip(Sim *s) {
    const Config *c = s->cfg;
    int seat = s->turn;
    if (c->out_when == PLAYERS_OUT_WHEN_MISSED_SLAP && c->slap_in && matches(s)) {
        out_missed(s, NULL, 0);
        if (s->over) return;
    }
    if (!stack_len(s, seat)) {
        s->broken = 1; /* Python would fail popping an empty stack */
        return;
    }
    int card = stack_pop(s, seat);
    s->pile[s->npile++] = (uint8_t)card;
    s->cards++;
    s->last_flipper = seat;
    emit(s, EV_CARD_TURNED, seat, card, s->cards, 0);
    if (c->max_cards && s->cards >= c->max_cards) {
        finish(s, RES_LIMIT, -1, END_CARD_LIMIT);
        return;
    }
    int demand = c->demand[RANK(card)];
    if (demand) open_challenge(s, seat, card, demand);
    else if (s->owed) pay(s, seat, card);
    else pass_turn(s, seat);
}

/* 1 when the key was already in the set, 0 when it was added, -1 when memory ran out. */
static int seen_add(Seen *set, const uint8_t *key, uint32_t len) {
    uint64_t h = 0xcbf29ce484222325ULL;
    for (uint32_t i = 0; i < len; i++) h = (h ^ key[i]) * 0x100000001b3ULL;
    h |= 1; /* never 0, which marks an empty slot */
    if (2 * (set->count + 1) > set->cap) {
        size_t cap = set->cap ? 2 * set->cap : 1024;
        uint64_t *hashes = calloc(cap, sizeof *hashes);
        uint32_t *offsets = malloc(cap * sizeof *offsets), *lengths = malloc(cap * sizeof *lengths);
        if (!hashes || !offsets || !lengths) {
            free(hashes);
            free(offsets);
            free(lengths);
            return -1;
        }
        for (size_t i = 0; i < set->cap; i++) {
            if (!set->hashes[i]) continue;
            size_t j = set->hashes[i] & (cap - 1);
            while (hashes[j]) j = (j + 1) & (cap - 1);
            hashes[j] = set->hashes[i];
            offsets[j] = set->offsets[i];
            lengths[j] = set->lengths[i];
        }
        free(set->hashes);
        free(set->offsets);
        free(set->lengths);
        set->hashes = hashes;
        set->offsets = offsets;
        set->lengths = lengths;
        set->cap = cap;
    }
    size_t j = h & (set->cap - 1);
    while (set->hashes[j]) {
        if (set->hashes[j] == h && set->lengths[j] == len && !memcmp(set->arena + set->offsets[j], key, len)) return 1;
        j = (j + 1) & (set->cap - 1);
    }
    if (set->used + len > set->room) {
        size_t room = set->room ? 2 * set->room : 65536;
        while (room < set->used + len) room *= 2;
        uint8_t *arena = realloc(set->arena, room);
        if (!arena) return -1;
        set->arena = arena;
        set->room = room;
    }
    memcpy(set->arena + set->used, key, len);
    set->hashes[j] = h;
    set->offsets[j] = (uint32_t)set->used;
    set->lengths[j] = len;
    set->used += len;
    set->count++;
    return 0;
}

static void seen_free(Seen *set) {
    free(set->hashes);
    free(set->offsets);
    free(set->lengths);
    free(set->arena);
    memset(set, 0, sizeof *set);
}

/* Game._mark_boundary: without slaps only a card's class (what it demands, or being a 10 under ten_stops)
 * steers the game, so a position is every stack as classes, who is out, and whose turn it is. */
static void mark_boundary(Sim *s) {
    if (!s->detect_loops) return;
    const Config *c = s->cfg;
    uint8_t key[MAX_TOTAL + 3 * MAX_SEATS + 1];
    uint32_t len = 0;
    for (int seat = 0; seat < s->n; seat++) {
        key[len++] = (uint8_t)stack_len(s, seat);
        for (unsigned i = s->head[seat]; i != s->tail[seat]; i++) {
            int card = s->stack[seat][i & (RING - 1)];
            int demand = c->demand[RANK(card)];
            key[len++] = (uint8_t)(demand ? demand : (c->ten_stops && RANK(card) == R_TEN ? 10 : 0));
        }
    }
    for (int seat = 0; seat < s->n; seat++) key[len++] = (uint8_t)s->out[seat];
    key[len++] = (uint8_t)s->turn;
    int found = seen_add(&s->seen, key, len);
    if (found < 0) s->broken = 1;
    else if (found) finish(s, RES_LOOP, -1, END_LOOP);
}

static void collect(Sim *s) {
    const Config *c = s->cfg;
    int seats[MAX_SEATS];
    int nseats = 0;
    if (s->nsplit) {
        memcpy(seats, s->split, sizeof(int) * (size_t)s->nsplit);
        nseats = s->nsplit;
    } else if (s->collect_pending >= 0) {
        seats[0] = s->collect_pending;
        nseats = 1;
    }
    s->nsplit = 0;
    if (!nseats) return;
    if (c->out_when == PLAYERS_OUT_WHEN_MISSED_SLAP && c->slap_in && matches(s)) {
        out_missed(s, seats, nseats);
        if (s->over) return;
    }
    gather(s, seats, nseats, s->collect_how);
    s->collect_pending = -1;
    s->owed = 0;
    s->challenger = -1;
    int leader = seats[0];
    if (c->leader == PLAYERS_LEADER_LEFT) {
        int nxt = next_player(s, leader, 0);
        if (s->over) return;
        leader = nxt < 0 ? leader : nxt;
    } else if (c->leader == PLAYERS_LEADER_NEXT) {
        int nxt = settle_from(s, after_last_card(s), -1);
        if (s->over) return;
        leader = nxt < 0 ? leader : nxt;
    }
    s->turn = leader;
    check_all_held(s);
    if (!s->over) mark_boundary(s);
}

static void end_split_window(Sim *s) {
    if (s->nsplit) collect(s);
}

static void settle_due(Sim *s) {
    if (s->collect_pending >= 0) {
        s->turn = peek_leader(s, s->collect_pending);
        return;
    }
    int seat = s->turn;
    if (!s->out[seat] && stack_len(s, seat)) return;
    if (s->owed && s->challenger >= 0 && !s->out[seat]) {
        payer_ran_out(s, seat);
        return;
    }
    if (!s->cfg->slap_in && !s->out[seat]) {
        mark_out(s, seat, OUT_EMPTY);
        if (s->over) return;
    }
    pass_turn(s, seat);
}

/* give-pile: the next seat in on the slapper's left takes the pile, as if it had won it. */
static void give_pile(Sim *s, int seat) {
    if (!s->npile && !s->nburned) return;
    int receiver = -1;
    for (int k = 1; k < s->n && receiver < 0; k++)
        if (!s->out[(seat + k) % s->n]) receiver = (seat + k) % s->n;
    if (receiver < 0) {
        s->broken = 1;
        return;
    }
    s->nsplit = 0;
    s->collect_pending = receiver;
    s->collect_how = WON_GIVEN;
    collect(s);
}

static inline int take_penalty_card(Sim *s, int seat) {
    return s->cfg->from_bottom ? stack_pop_bottom(s, seat) : stack_pop(s, seat);
}

static void wrong_slap(Sim *s, int seat) {
    const Config *c = s->cfg;
    int was_empty = !stack_len(s, seat);
    int nburn = 0, ngiven = 0;
    s->paid_at[seat] = s->table_paid_at = s->cards;
    if (c->penalty == SLAPPING_PENALTY_BURN) {
        int count = c->penalty_cards < stack_len(s, seat) ? c->penalty_cards : stack_len(s, seat);
        for (int i = 0; i < count; i++) s->burned[s->nburned++] = (uint8_t)take_penalty_card(s, seat);
        nburn = count;
    } else if (c->penalty == SLAPPING_PENALTY_GIVE_EACH) {
        int receivers[MAX_SEATS], nr = 0;
        for (int step = 1; step < s->n; step++) {
            int r = (seat + step) % s->n;
            if (!s->out[r]) receivers[nr++] = r;
        }
        for (int round = 0; round < c->penalty_cards; round++) {
            for (int k = 0; k < nr; k++) {
                if (!stack_len(s, seat)) break;
                stack_push(s, receivers[k], take_penalty_card(s, seat));
                ngiven++;
            }
        }
    } else if (c->penalty == SLAPPING_PENALTY_LOCKOUT) {
        s->locked_until[seat] = s->cards + c->lockout_cards;
    } else if (c->penalty == SLAPPING_PENALTY_LOCKOUT_PILE) {
        s->locked_pile[seat] = s->tricks;
    }
    emit(s, EV_WRONG_SLAP, seat, -1, nburn, ngiven);
    if (c->penalty == SLAPPING_PENALTY_GIVE_PILE) {
        give_pile(s, seat);
        if (s->over) return;
    }
    if (c->slap_in && c->out_when == PLAYERS_OUT_WHEN_WRONG_SLAP && was_empty) {
        mark_out(s, seat, OUT_WRONG_SLAP);
        if (s->over) return;
    }
    check_all_held(s);
    if (!s->over) settle_due(s);
}

/* Game.lockout: the seat's slaps are dismissed after a wrong slap under a lockout penalty. */
static inline int locked_out(const Sim *s, int seat) {
    return s->locked_pile[seat] == s->tricks || s->locked_until[seat] > s->cards;
}

static void slap(Sim *s, int seat, long long t, long long card) {
    const Config *c = s->cfg;
    if (s->nsplit && !(t - s->split_t0 <= c->tie_window)) {
        end_split_window(s);
        if (s->over) return;
    }
    if (1 <= card && card <= s->pile_start) {
        emit(s, EV_SLAP_DISMISSED, seat, -1, DISMISS_LATE, 0);
        return;
    }
    if (locked_out(s, seat)) {
        emit(s, EV_SLAP_DISMISSED, seat, -1, DISMISS_LOCKED_OUT, 0);
        return;
    }
    if (s->nsplit) {
        for (int k = 0; k < s->nsplit; k++)
            if (s->split[k] == seat) {
                emit(s, EV_SLAP_DISMISSED, seat, -1, DISMISS_ALREADY_SHARING, 0);
                return;
            }
        unsigned m = matches(s);
        if (m) {
            s->split[s->nsplit++] = seat;
            emit(s, EV_SLAP_CORRECT, seat, -1, m, 0);
            return;
        }
    }
    unsigned m = matches(s);
    if (!m) {
        if (c->once_per_card && (c->once_table ? s->table_paid_at : s->paid_at[seat]) == s->cards) {
            emit(s, EV_SLAP_DISMISSED, seat, -1, DISMISS_ONCE_PER_CARD, 0);
            return;
        }
        wrong_slap(s, seat);
        return;
    }
    emit(s, EV_SLAP_CORRECT, seat, -1, m, 0);
    s->owed = 0;
    s->challenger = -1;
    s->collect_pending = seat;
    s->collect_how = WON_SLAP;
    s->turn = peek_leader(s, seat);
    if (c->tie_split) {
        s->split[0] = seat;
        s->nsplit = 1;
        s->split_t0 = t;
    } else {
        collect(s);
    }
}

static void end_by_time(Sim *s) {
    if (s->nsplit || s->collect_pending >= 0) {
        collect(s);
        if (s->over) return;
    }
    int best = -1, leaders = 0, leader = -1;
    for (int seat = 0; seat < s->n; seat++) {
        int len = stack_len(s, seat);
        if (len > best) {
            best = len;
            leaders = 1;
            leader = seat;
        } else if (len == best) {
            leaders++;
        }
    }
    if (leaders == 1) finish(s, RES_WIN, leader, END_TIME);
    else finish(s, RES_DRAW, -1, END_TIME);
}

enum { A_FLIP, A_WAIT, A_SLAP };

static void game_apply(Sim *s, int action, int seat, long long t, long long card) {
    const Config *c = s->cfg;
    s->nnotes = 0;
    s->now = t;
    if (c->time_limit_s && t > c->time_limit_s * 1000) {
        end_by_time(s);
    } else if (action == A_SLAP) {
        slap(s, seat, t, card);
    } else {
        end_split_window(s);
        if (!s->over && s->collect_pending >= 0) collect(s);
        if (!s->over && action == A_FLIP) flip(s);
    }
}

/* ------------------------------------------------------------------ the table (table/table.py) */

static void schedule(Sim *s, long long at, int kind, int seat, long long card) {
    if (s->ntimers >= MAX_TIMERS) {
        s->broken = 1;
        return;
    }
    Timer *tm = &s->timers[s->ntimers++];
    tm->at = at;
    tm->order = s->next_order++;
    tm->kind = kind;
    tm->seat = seat;
    tm->card = card;
    tm->pile_cards = s->cards;
    tm->pile_tricks = s->tricks;
}

static inline void drop_timer(Sim *s, int i) { s->timers[i] = s->timers[--s->ntimers]; }

/* The bots' view of the pile, worked out once per change (bots/bot.py, Sight.build). */
typedef struct {
    int easiest; /* the easiest pattern showing, or -1 */
    int long_challenge;
    int near_miss;
} Sight;

static Sight look(const Sim *s) {
    const Config *c = s->cfg;
    Sight v = {-1, 0, 0};
    unsigned m = matches(s);
    if (s->owed > 0 && s->challenger >= 0) {
        for (int i = s->npile - 1; i >= 0; i--) {
            int d = c->demand[RANK(s->pile[i])];
            if (d) {
                v.long_challenge = d >= 3;
                break;
            }
        }
    }
    for (int p = 0; m >> p; p++) {
        if (!(m & (1u << p))) continue;
        if (v.easiest < 0 || c->diff_miss[p] < c->diff_miss[v.easiest] ||
            (c->diff_miss[p] == c->diff_miss[v.easiest] && c->diff_extra[p] < c->diff_extra[v.easiest]))
            v.easiest = p;
    }
    if (!m && s->npile >= 2) {
        int top = s->pile[s->npile - 1], below_ = s->pile[s->npile - 2];
        int rt = RANK(top), rb = RANK(below_);
        if (rt != 0 && rb != 0) {
            int neighbours = rt - rb == 1 || rb - rt == 1;
            int court_pair = rt >= R_JACK && rb >= R_JACK &&
                             (rt == R_KING || rt == R_QUEEN || rb == R_KING || rb == R_QUEEN);
            v.near_miss = neighbours || court_pair;
        }
    }
    return v;
}

static int strategy_wants(const Sim *s, int seat) {
    const Config *c = s->cfg;
    if (!s->npile) return 0;
    if (c->strategy[seat] == 2) return s->npile + s->nburned >= c->min_cards[seat];
    int courts = c->courts[seat];
    for (int i = 0; i < s->nburned; i++)
        if (courts & (1 << RANK(s->burned[i]))) return 1;
    for (int i = 0; i < s->npile - 1; i++)
        if (courts & (1 << RANK(s->pile[i]))) return 1;
    return 0;
}

/* Bot.react: the delay of a planned slap, or -1 for none. */
static long long react(Sim *s, const Sight *v, int seat) {
    const Config *c = s->cfg;
    if (s->over || s->out[seat] || locked_out(s, seat)) return -1; /* a locked-out seat knows better */
    if (c->strategy[seat]) {
        if (s->cards == s->last_card[seat]) return -1;
        s->last_card[seat] = s->cards;
        if (!strategy_wants(s, seat)) return -1;
        return reaction(s, seat, 0.0);
    }
    if (v->easiest >= 0) {
        double miss = c->miss[seat] * c->diff_miss[v->easiest] * (v->long_challenge ? c->long_miss : 1.0);
        if (miss > 0 && random01(&s->rng[seat]) < (0.95 < miss ? 0.95 : miss)) return -1;
        return reaction(s, seat, c->diff_extra[v->easiest]);
    }
    if (c->wrong[seat] <= 0 || !s->npile) return -1;
    double chance = c->wrong[seat] * (v->near_miss ? c->near_wrong : 1.0);
    if (random01(&s->rng[seat]) < chance) return reaction(s, seat, 0.0);
    return -1;
}

static void plan_bot_slaps(Sim *s, long long t) {
    Sight v = look(s);
    for (int seat = 0; seat < s->n; seat++) {
        long long delay = react(s, &v, seat);
        if (delay >= 0) schedule(s, t + delay, T_BOT_SLAP, seat, s->cards);
    }
}

static void cancel_bot_slaps(Sim *s) {
    for (int i = 0; i < s->ntimers;) {
        if (s->timers[i].kind == T_BOT_SLAP) drop_timer(s, i);
        else i++;
    }
}

static void plan_flip(Sim *s, long long t) {
    int due = s->turn;
    for (int i = 0; i < s->ntimers; i++) {
        if (s->timers[i].kind != T_FLIP) continue;
        if (s->timers[i].seat == due && s->collect_pending < 0) return;
        drop_timer(s, i);
        break;
    }
    if (s->over || s->collect_pending >= 0) return;
    schedule(s, t + flip_delay(s, due), T_FLIP, due, 0);
}

static inline long long burned_key(const Sim *s) { return s->cfg->burned_count ? s->nburned : 0; }

static void table_apply(Sim *s, int action, int seat, long long t, long long card) {
    const Config *c = s->cfg;
    if (t < s->last_t) t = s->last_t;
    s->last_t = t;
    game_apply(s, action, seat, t, card);
    for (int i = 0; i < s->nnotes; i++) {
        int who = s->notes[i];
        if (who < 0) schedule(s, t + c->collect_delay, T_COLLECT, -1, 0);
        else if (c->tie_split && s->collect_pending == who) schedule(s, t + c->tie_window, T_SPLIT_CLOSE, -1, 0);
    }
    if (s->over) return;
    long long kb = burned_key(s);
    if (s->cards != s->key_cards || s->tricks != s->key_tricks || kb != s->key_burned) {
        s->key_cards = s->cards;
        s->key_tricks = s->tricks;
        s->key_burned = kb;
        cancel_bot_slaps(s);
        plan_bot_slaps(s, t);
    }
    plan_flip(s, t);
}

static void fire(Sim *s, const Timer *tm) {
    switch (tm->kind) {
    case T_FLIP:
        if (s->turn == tm->seat && s->collect_pending < 0) table_apply(s, A_FLIP, -1, tm->at, 0);
        break;
    case T_BOT_SLAP:
        if (!s->out[tm->seat]) table_apply(s, A_SLAP, tm->seat, tm->at, tm->card);
        break;
    case T_TIME_LIMIT:
        table_apply(s, A_WAIT, -1, tm->at, 0);
        break;
    default: /* the end of the pause after a won challenge, or of a tie window */
        if (s->collect_pending >= 0 && tm->pile_cards == s->cards && tm->pile_tricks == s->tricks)
            table_apply(s, A_WAIT, -1, tm->at, 0);
        break;
    }
}

/* ------------------------------------------------------------------ one game */

static int read_config(const double *v, Py_ssize_t count, Config *c) {
    if (count < CFG_HEADER) return 0;
    int players = (int)v[CFG_PLAYERS];
    if (players < 2 || players > MAX_SEATS || count != CFG_HEADER + (Py_ssize_t)players * SEAT_SIZE) return 0;
    memset(c, 0, sizeof *c);
    c->players = players;
    c->demand[R_JACK] = (int)v[CFG_CHALLENGE_J];
    c->demand[R_QUEEN] = (int)v[CFG_CHALLENGE_Q];
    c->demand[R_KING] = (int)v[CFG_CHALLENGE_K];
    c->demand[R_ACE] = (int)v[CFG_CHALLENGE_A];
    c->demand[0] = (int)v[CFG_CHALLENGE_JOKER];
    c->next_pays = v[CFG_CHALLENGE_EMPTY_PAYER] == CHALLENGE_EMPTY_PAYER_NEXT_PAYS;
    c->ten_stops = (int)v[CFG_CHALLENGE_TEN_STOPS];
    c->collect_delay = (int)v[CFG_SLAPPING_COLLECT_DELAY_MS];
    c->penalty = (int)v[CFG_SLAPPING_PENALTY];
    c->penalty_cards = (int)v[CFG_SLAPPING_PENALTY_CARDS];
    c->lockout_cards = (long long)v[CFG_SLAPPING_LOCKOUT_CARDS];
    c->from_bottom = v[CFG_SLAPPING_PENALTY_FROM] == SLAPPING_PENALTY_FROM_BOTTOM;
    c->once_per_card = v[CFG_SLAPPING_ONCE_PER_CARD] != 0;
    c->once_table = v[CFG_SLAPPING_ONCE_PER_CARD_SCOPE] == SLAPPING_ONCE_PER_CARD_SCOPE_TABLE;
    c->tie_window = (int)v[CFG_SLAPPING_TIE_WINDOW_MS];
    c->tie_split = v[CFG_SLAPPING_TIE] == SLAPPING_TIE_SPLIT;
    c->slap_in = (int)v[CFG_PLAYERS_SLAP_IN];
    c->out_when = (int)v[CFG_PLAYERS_OUT_WHEN];
    c->leader = (int)v[CFG_PLAYERS_LEADER];
    c->marriage_suits = (int)v[CFG_SLAPS_MARRIAGE_SUITS];
    c->run = (int)v[CFG_SLAPS_RUN];
    c->run_wrap = (int)v[CFG_SLAPS_RUN_WRAP];
    c->ten = (int)v[CFG_SLAPS_TEN];
    c->ten_gap = (int)v[CFG_SLAPS_TEN_GAP];
    c->burned_count = (int)v[CFG_SLAPS_BURNED_COUNT];
    c->flush = (int)v[CFG_SLAPS_FLUSH];
    int wild = (int)v[CFG_SLAPS_WILDCARD]; /* off, then the ranks 2 .. A: place i is rank i + 1 */
    c->wildcard = wild ? wild + 1 : -1;
    /* A pattern is on when both the fields PATTERN_LIST names are (each reads 0 when off). */
#define AS_SWITCH(id, key, test, first, last) c->p_on[P_##id] = v[first] != 0 && v[last] != 0;
    PATTERN_LIST(AS_SWITCH)
#undef AS_SWITCH
    c->time_limit_s = (long long)v[CFG_END_TIME_LIMIT_S];
    c->max_cards = (long long)v[CFG_END_MAX_CARDS];
    int decks = (int)v[CFG_DECK_DECKS]; /* auto, 1, 2: auto is one deck up to 6 players (Rules.deck_for) */
    c->decks = decks ? decks : (players <= 6 ? 1 : 2);
    c->jokers = (int)v[CFG_DECK_JOKERS];
    c->bot_pace = v[CFG_BOT_PACE];
    for (int p = 0; p < P_COUNT; p++) {
        c->diff_miss[p] = v[CFG_DIFFICULTY + 2 * p];
        c->diff_extra[p] = v[CFG_DIFFICULTY + 2 * p + 1];
    }
    c->long_miss = v[CFG_LONG_MISS];
    c->near_wrong = v[CFG_NEAR_WRONG];
    if (c->decks < 1 || c->decks > 2 || c->jokers < 0 || c->jokers > 2 || c->run > 4 || c->penalty_cards < 0 ||
        c->flush > 8 || c->penalty < SLAPPING_PENALTY_BURN || c->penalty > SLAPPING_PENALTY_GIVE_PILE || c->wildcard > R_ACE)
        return 0;
    for (int i = 0; i < players; i++) {
        const double *seat = v + CFG_HEADER + i * SEAT_SIZE;
        c->fixed[i] = seat[SEAT_REACTION_FIXED] != 0;
        c->mu[i] = seat[SEAT_MU];
        c->sigma[i] = seat[SEAT_SIGMA];
        c->tau[i] = seat[SEAT_TAU];
        c->floor_[i] = seat[SEAT_FLOOR];
        c->fixed_ms[i] = seat[SEAT_FIXED_MS];
        c->miss[i] = seat[SEAT_MISS];
        c->wrong[i] = seat[SEAT_WRONG];
        c->fmu[i] = seat[SEAT_FLIP_MU];
        c->fsigma[i] = seat[SEAT_FLIP_SIGMA];
        c->ftau[i] = seat[SEAT_FLIP_TAU];
        c->ffloor[i] = seat[SEAT_FLIP_FLOOR];
        c->strategy[i] = (int)seat[SEAT_STRATEGY];
        c->courts[i] = (int)seat[SEAT_COURTS];
        c->min_cards[i] = (int)seat[SEAT_MIN_CARDS];
    }
    return 1;
}

/* Plays one game; returns 0 when it ended, -1 when the state went where the Python code would raise. */
static int play_game(Sim *s, const Config *c, uint64_t seed, int want_hash, const uint8_t *given, Py_ssize_t ngiven) {
    memset(s, 0, offsetof(Sim, timers));
    /* Rules.any_slap_enabled: loops are looked for only when no pattern could ever be slapped. */
    s->detect_loops = 1;
    for (int p = 0; p < P_COUNT; p++)
        if (c->p_on[p] && (p != P_JOKER || c->jokers > 0)) s->detect_loops = 0;
    s->cfg = c;
    s->n = c->players;
    s->want_hash = want_hash;
    s->hash = FNV_OFFSET;
    s->challenger = -1;
    s->collect_pending = -1;
    s->collect_how = WON_CHALLENGE;
    s->last_flipper = -1;
    s->winner = -1;
    for (int seat = 0; seat < MAX_SEATS; seat++) s->locked_pile[seat] = s->paid_at[seat] = -1;
    s->table_paid_at = -1;

    /* The deck (cards.DeckSpec.cards), shuffled (shuffle.SeededRandom.shuffle) and dealt from seat 0. */
    uint8_t deck[MAX_TOTAL];
    int total = 0;
    for (int d = 0; d < c->decks; d++) {
        for (int suit = 0; suit < 4; suit++)
            for (int rank = 2; rank <= R_ACE; rank++) deck[total++] = (uint8_t)(rank * 4 + suit);
        for (int j = 0; j < c->jokers; j++) deck[total++] = 0;
    }
    uint64_t state = seed;
    for (int i = total - 1; i > 0; i--) {
        int j = (int)below(&state, (uint64_t)i + 1);
        uint8_t tmp = deck[i];
        deck[i] = deck[j];
        deck[j] = tmp;
    }
    if (given) { /* a deck in the order to deal it, for tests (the caller checked it is the rules' deck) */
        if (ngiven != total) return -1;
        memcpy(deck, given, (size_t)total);
    }
    for (int i = 0; i < total; i++) stack_push(s, i % s->n, deck[i]);
    s->total = total;

    /* Game.__init__: the first seat that can play leads (every seat holds cards after a deal). */
    int first = settle_from(s, 0, -1);
    if (first >= 0) s->turn = first;
    check_all_held(s);
    if (s->over) return -1;
    mark_boundary(s);

    /* Table.__init__: each bot's stream is seeded from the table's, in seat order. */
    uint64_t table_rng = seed;
    for (int seat = 0; seat < s->n; seat++) {
        s->rng[seat] = next_u64(&table_rng);
        s->last_card[seat] = -1;
    }
    s->key_cards = s->cards;
    s->key_tricks = s->tricks;
    s->key_burned = burned_key(s);
    if (c->time_limit_s) schedule(s, c->time_limit_s * 1000 + 1, T_TIME_LIMIT, -1, 0);
    plan_flip(s, 0);
    plan_bot_slaps(s, 0);

    /* run_virtual: fire the earliest timer, ties by the order they were set, until the game ends. Each time
     * the clock moves on is one of its steps. */
    long long steps = 0, clock = -1;
    while (!s->over) {
        if (s->broken || s->ntimers == 0) return -1;
        int best = 0;
        for (int i = 1; i < s->ntimers; i++) {
            const Timer *a = &s->timers[i], *b = &s->timers[best];
            if (a->at < b->at || (a->at == b->at && a->order < b->order)) best = i;
        }
        Timer tm = s->timers[best];
        if (tm.at > clock || steps == 0) {
            if (++steps > MAX_STEPS) return -1;
            clock = tm.at;
        }
        drop_timer(s, best);
        s->now = tm.at; /* the virtual clock: the game's last figure is the time of the timer that ended it */
        fire(s, &tm);
    }
    if (s->broken) return -1;
    return 0;
}

/* One figure per seat, as a tuple (a new reference, or NULL with the error set). */
static PyObject *seat_tuple(const long long *values, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *v = PyLong_FromLongLong(values[i]);
        if (!v) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

static PyObject *py_play(PyObject *self, PyObject *args) {
    Py_buffer buf, deck = {0};
    unsigned long long seed;
    int want_hash;
    if (!PyArg_ParseTuple(args, "y*Kp|y*", &buf, &seed, &want_hash, &deck)) return NULL;
    Config cfg;
    int ok = buf.len % (Py_ssize_t)sizeof(double) == 0 &&
             read_config((const double *)buf.buf, buf.len / (Py_ssize_t)sizeof(double), &cfg);
    PyBuffer_Release(&buf);
    if (!ok) {
        if (deck.obj) PyBuffer_Release(&deck);
        PyErr_SetString(PyExc_ValueError, "the kernel configuration is malformed");
        return NULL;
    }
    Sim sim;
    int failed = play_game(&sim, &cfg, (uint64_t)seed, want_hash, deck.obj ? (const uint8_t *)deck.buf : NULL, deck.len);
    if (deck.obj) PyBuffer_Release(&deck);
    seen_free(&sim.seen);
    if (failed) {
        PyErr_SetString(PyExc_RuntimeError, "the compiled game reached a state the Python engine does not allow");
        return NULL;
    }
    PyObject *slaps = seat_tuple(sim.seat_slap_piles, sim.n);
    PyObject *challenges = seat_tuple(sim.seat_challenge_piles, sim.n);
    PyObject *wrongs = seat_tuple(sim.seat_wrong_slaps, sim.n);
    PyObject *row = NULL;
    if (slaps && challenges && wrongs)
        row = Py_BuildValue("(LLLLLLiiKLOOO)", sim.cards, sim.now, sim.piles_by_slap, sim.piles_by_challenge,
                            sim.wrong_slaps, sim.knocked, sim.result, sim.winner,
                            (unsigned long long)(want_hash ? sim.hash : 0), sim.tricks, slaps, challenges, wrongs);
    Py_XDECREF(slaps);
    Py_XDECREF(challenges);
    Py_XDECREF(wrongs);
    return row;
}

static PyMethodDef methods[] = {
    {"play", py_play, METH_VARARGS,
     "play(config, seed, want_hash[, deck]) -> (cards, ms, piles_by_slap, piles_by_challenge, wrong_slaps, "
     "out_by_wrong_slap, result, winner or -1, event hash or 0, tricks, piles won by slap per seat, piles won by "
     "challenge per seat, wrong slaps per seat); deck (card codes in dealing order) replaces "
     "the shuffle"},
    {NULL, NULL, 0, NULL},
};

/* ------------------------------------------------------------------ the lists, by name */

#define AS_NAME(id, name, ...) name,
#define AS_RULE_SPEC(id, key, lo, hi, choices) {key, lo, hi, choices},
typedef struct {
    const char *key;
    long long lo, hi;
    const char *choices; /* the values as text, separated by spaces; NULL for a range */
} RuleSpec;
static const RuleSpec RULE_SPECS[] = {RULE_FIELDS(AS_RULE_SPEC)};
static const char *const TABLE_NAMES[] = {TABLE_FIELDS(AS_NAME)};
static const char *const PATTERN_NAMES[] = {PATTERN_LIST(AS_NAME)};
static const char *const SEAT_NAMES[] = {SEAT_LIST(AS_NAME)};
#define COUNT(a) ((Py_ssize_t)(sizeof(a) / sizeof((a)[0])))

static PyObject *names(const char *const *items, Py_ssize_t n) {
    PyObject *out = PyTuple_New(n);
    for (Py_ssize_t i = 0; out && i < n; i++) {
        PyObject *item = PyUnicode_FromString(items[i]);
        if (!item) {
            Py_CLEAR(out);
            break;
        }
        PyTuple_SET_ITEM(out, i, item);
    }
    return out;
}

/* CONFIG_FIELDS: every double of the header, in order: the rules keys, the table's numbers, then "miss.P"
 * and "extra.P" for each pattern P. */
static PyObject *config_fields(void) {
    Py_ssize_t nrules = COUNT(RULE_SPECS), ntable = COUNT(TABLE_NAMES);
    PyObject *out = PyTuple_New(CFG_HEADER);
    if (!out) return NULL;
    for (Py_ssize_t i = 0; i < CFG_HEADER; i++) {
        PyObject *item;
        if (i < nrules) item = PyUnicode_FromString(RULE_SPECS[i].key);
        else if (i < nrules + ntable) item = PyUnicode_FromString(TABLE_NAMES[i - nrules]);
        else {
            Py_ssize_t k = i - nrules - ntable;
            item = PyUnicode_FromFormat("%s.%s", k % 2 ? "extra" : "miss", PATTERN_NAMES[k / 2]);
        }
        if (!item) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, item);
    }
    return out;
}

/* RULE_VALUES: for each rules key, the values this file plays: (lo, hi), or the choices as text. */
static PyObject *rule_values(void) {
    PyObject *out = PyDict_New();
    for (Py_ssize_t i = 0; out && i < COUNT(RULE_SPECS); i++) {
        const RuleSpec *spec = &RULE_SPECS[i];
        PyObject *value;
        if (spec->choices) {
            PyObject *text = PyUnicode_FromString(spec->choices);
            value = text ? PyUnicode_Split(text, NULL, -1) : NULL;
            Py_XDECREF(text);
            if (value) {
                PyObject *tuple = PyList_AsTuple(value);
                Py_DECREF(value);
                value = tuple;
            }
        } else {
            value = Py_BuildValue("(LL)", spec->lo, spec->hi);
        }
        if (!value || PyDict_SetItemString(out, spec->key, value) < 0) Py_CLEAR(out);
        Py_XDECREF(value);
    }
    return out;
}

/* ROW_FIELDS: what play() returns, in order, so a reader built for another row is told rather than misled. */
static const char *const ROW_NAMES[] = {
    "cards", "ms", "piles_by_slap", "piles_by_challenge", "wrong_slaps", "out_by_wrong_slap", "result", "winner",
    "event_hash", "tricks", "seat_slap_piles", "seat_challenge_piles", "seat_wrong_slaps",
};

/* ENUMS: the values of each enum the events and results use, in this file's order. */
static PyObject *enums(void) {
    static const char *const kinds[] = {EVENT_KINDS(AS_NAME)}, *const wins[] = {CHALLENGE_WINS(AS_NAME)};
    static const char *const stops[] = {STOP_REASONS(AS_NAME)}, *const dismiss[] = {DISMISS_REASONS(AS_NAME)};
    static const char *const won[] = {WON_BY(AS_NAME)}, *const outs[] = {OUT_REASONS(AS_NAME)};
    static const char *const results[] = {RESULTS(AS_NAME)}, *const endings[] = {ENDINGS(AS_NAME)};
    static const char *const suits[] = {SUITS(AS_NAME)};
    struct {
        const char *name;
        const char *const *items;
        Py_ssize_t n;
    } all[] = {
        {"EventKind", kinds, COUNT(kinds)},     {"ChallengeWin", wins, COUNT(wins)},
        {"StopReason", stops, COUNT(stops)},    {"DismissReason", dismiss, COUNT(dismiss)},
        {"WonBy", won, COUNT(won)},             {"OutReason", outs, COUNT(outs)},
        {"Result", results, COUNT(results)},    {"Ending", endings, COUNT(endings)},
        {"Suit", suits, COUNT(suits)},          {"patterns", PATTERN_NAMES, P_COUNT},
    };
    PyObject *out = PyDict_New();
    for (size_t i = 0; out && i < sizeof all / sizeof all[0]; i++) {
        PyObject *value = names(all[i].items, all[i].n);
        if (!value || PyDict_SetItemString(out, all[i].name, value) < 0) Py_CLEAR(out);
        Py_XDECREF(value);
    }
    return out;
}

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_ers_fast",
                                    "Egyptian Ratscrew games between computer players, in C.", -1, methods};

PyMODINIT_FUNC PyInit__ers_fast(void) {
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    PyObject *values[] = {config_fields(), names(SEAT_NAMES, SEAT_SIZE), rule_values(), enums(),
                          names(ROW_NAMES, COUNT(ROW_NAMES))};
    const char *attrs[] = {"CONFIG_FIELDS", "SEAT_FIELDS", "RULE_VALUES", "ENUMS", "ROW_FIELDS"};
    int failed = 0;
    for (int i = 0; i < 5; i++) {
        if (failed || !values[i] || PyModule_AddObjectRef(m, attrs[i], values[i]) < 0) failed = 1;
        Py_XDECREF(values[i]);
    }
    if (failed) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
