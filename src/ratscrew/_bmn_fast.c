/*
 * Two-hand Beggar-my-neighbour in C, for the lab (ratscrew.bmn uses it unless told not to).
 *
 * It plays exactly the conventions of ratscrew.bmn.play_bmn and of the engine's "beggar" preset, and
 * deals random hands with the same SplitMix64 stream and partial Fisher-Yates as ratscrew.bmn.random_deal,
 * so every figure it gives is the one the pure-Python path gives, only sooner. The tests check both paths
 * against each other and against the engine.
 *
 * Speed comes from never handling number cards one by one. A hand lives in three 64-bit words used as
 * a ring of 64 places (more than the 52 cards a hand can hold): one bit per place says "court card here",
 * two more give its demand minus one; a number card is all zero bits. Free-running head and tail counters
 * say where the hand starts and ends, and bits outside that stretch mean nothing. The number cards on top
 * of a hand, up to its next court card, are counted with a rotate, a mask and a count of trailing zeros,
 * so a trick costs a few operations per court card turned, not per card, and a won pile goes under a
 * hand with one rotate per word. The two hands are held by role (the one to play, the other) in local
 * variables and swapped when the turn passes, so the compiler keeps the game in registers.
 *
 * Endless deals are found with Brent's cycle detection on the positions between tricks. A position is
 * the leader, the leader's hand length and both hands' words turned to start at bit 0; a saved position
 * is compared with the current one cheapest part first, so nearly every comparison ends after two
 * integer tests.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define MAX_CARDS 52

typedef struct {
    uint64_t court; /* bit k: place k of the ring holds a court card */
    uint64_t lo;    /* bit k: (demand - 1) & 1 of that court card */
    uint64_t hi;    /* bit k: (demand - 1) >> 1 */
    uint32_t head;  /* the top card is at place head & 63 */
    uint32_t tail;  /* one past the bottom card */
} Hand;

/* Between tricks: the hand that leads the next trick and the other one. */
typedef struct {
    Hand lead, other;
    int leader; /* the seat of `lead` */
    int total;
    int winner; /* -1 while the game goes on */
    long long cards;
    long long tricks;
} Game;

/* A position between tricks, for Brent's cycle detection. */
typedef struct {
    int leader;
    int lead_len;
    uint64_t words[6]; /* both hands' words turned so the top card is bit 0, cut to their length */
} Position;

static inline uint64_t rotr(uint64_t x, uint32_t r) {
    r &= 63;
    return (x >> r) | (x << ((64 - r) & 63));
}

static inline uint64_t rotl(uint64_t x, uint32_t r) {
    r &= 63;
    return (x << r) | (x >> ((64 - r) & 63));
}

static inline int length(Hand h) { return (int)(h.tail - h.head); }

/* The hand's court-card bits from the top card down, nothing past its bottom card. */
static inline uint64_t from_top(uint64_t word, Hand h) { return rotr(word, h.head) & ((1ULL << length(h)) - 1); }

/* Number cards on top of the hand before its first court card, or its length if it holds none. */
static inline int numbers_on_top(Hand h) {
    return __builtin_ctzll(from_top(h.court, h) | (1ULL << length(h)));
}

static inline void swap(Hand *a, Hand *b) {
    Hand t = *a;
    *a = *b;
    *b = t;
}

static void set_hand(Hand *h, const uint8_t *cards, int n) {
    memset(h, 0, sizeof(*h));
    for (int i = 0; i < n; i++) {
        if (!cards[i]) continue;
        uint64_t bit = 1ULL << i, d = (uint64_t)(cards[i] - 1);
        h->court |= bit;
        h->lo |= (d & 1) ? bit : 0;
        h->hi |= (d >> 1) ? bit : 0;
    }
    h->tail = (uint32_t)n;
}

static void start(Game *g, const Hand *first, const Hand *second) {
    memset(g, 0, sizeof(*g));
    g->lead = *first;
    g->other = *second;
    g->total = length(*first) + length(*second);
    g->winner = length(*first) == 0 ? 1 : (length(*second) == 0 ? 0 : -1);
}

/* Play one trick: from the leader's first card until a pile is collected or a player must play with none.
 * The order of events comes from counting number cards, with selects rather than branches where it can. */
static inline void trick(Game *g) {
    Hand a = g->lead, b = g->other; /* a: the hand to play next once the number cards run out */
    int a_seat = g->leader;
    int free_a = numbers_on_top(a), free_b = numbers_on_top(b);
    /* Number cards alternate, the leader's at even steps: the first court card (or empty hand) ends that. */
    int leader_first = free_a <= free_b;
    int run = leader_first ? free_a : free_b;
    a.head += (uint32_t)(run + !leader_first);
    b.head += (uint32_t)run;
    int size = 2 * run + !leader_first;
    if (!leader_first) {
        swap(&a, &b);
        a_seat ^= 1;
    }
    if (length(a) == 0) { /* must play with no card */
        g->cards += size;
        g->tricks++;
        g->winner = a_seat ^ 1;
        return;
    }
    /* The challenge: a turns a court card, b pays, and a court card turned while paying passes it back. */
    uint64_t pile_court = 0, pile_lo = 0, pile_hi = 0; /* bit k: the pile's k-th card, as in a hand */
    int demand, numbers;
    for (;;) {
        uint32_t h = a.head & 63;
        uint64_t lo = (a.lo >> h) & 1, hi = (a.hi >> h) & 1;
        demand = 1 + (int)lo + 2 * (int)hi;
        pile_court |= 1ULL << size;
        pile_lo |= lo << size;
        pile_hi |= hi << size;
        a.head++;
        size++;
        swap(&a, &b);
        a_seat ^= 1;
        numbers = numbers_on_top(a);
        if (!((numbers < demand) & (numbers < length(a)))) break;
        a.head += (uint32_t)numbers;
        size += numbers;
    }
    if (length(a) < demand) { /* the payer runs out before paying in full */
        g->cards += size + length(a);
        g->tricks++;
        g->winner = a_seat ^ 1;
        return;
    }
    a.head += (uint32_t)demand;
    size += demand;
    /* b takes the pile under their hand, in the order it was played, and leads. */
    uint32_t t = b.tail;
    uint64_t keep = ~rotl((1ULL << size) - 1, t);
    b.court = (b.court & keep) | rotl(pile_court, t);
    b.lo = (b.lo & keep) | rotl(pile_lo, t);
    b.hi = (b.hi & keep) | rotl(pile_hi, t);
    b.tail = t + (uint32_t)size;
    g->lead = b;
    g->other = a;
    g->leader = a_seat ^ 1;
    g->cards += size;
    g->tricks++;
    if (length(b) == g->total) g->winner = g->leader;
}

static inline void save(const Game *g, Position *pos) {
    const Hand *seat0 = g->leader == 0 ? &g->lead : &g->other;
    const Hand *seat1 = g->leader == 0 ? &g->other : &g->lead;
    pos->leader = g->leader;
    pos->lead_len = length(g->lead);
    pos->words[0] = from_top(seat0->court, *seat0);
    pos->words[1] = from_top(seat0->lo, *seat0);
    pos->words[2] = from_top(seat0->hi, *seat0);
    pos->words[3] = from_top(seat1->court, *seat1);
    pos->words[4] = from_top(seat1->lo, *seat1);
    pos->words[5] = from_top(seat1->hi, *seat1);
}

static inline int at_position(const Game *g, const Position *pos) {
    if (g->leader != pos->leader || length(g->lead) != pos->lead_len) return 0;
    Position now;
    save(g, &now);
    return memcmp(now.words, pos->words, sizeof(now.words)) == 0;
}

typedef struct {
    int winner;
    long long cards, tricks;
    long long prefix_cards, prefix_tricks, cycle_cards, cycle_tricks;
} Result;

static void play(const Hand *first, const Hand *second, Result *r) {
    Game g;
    Position saved;
    start(&g, first, second);
    memset(r, 0, sizeof(*r));
    /* Brent: a saved position waits at powers of two while the game runs on; meeting it again gives the
     * cycle length lam. */
    long long power = 1, lam = 0;
    save(&g, &saved);
    for (;;) {
        if (g.winner >= 0) {
            r->winner = g.winner;
            r->cards = g.cards;
            r->tricks = g.tricks;
            return;
        }
        trick(&g);
        lam++;
        if (g.winner < 0 && at_position(&g, &saved)) break;
        if (lam == power) {
            save(&g, &saved);
            power *= 2;
            lam = 0;
        }
    }
    /* The cycle's first position: two games lam tricks apart from the deal meet there. */
    Game one, two;
    start(&one, first, second);
    two = one;
    for (long long i = 0; i < lam; i++) trick(&two);
    for (;;) {
        save(&two, &saved);
        if (at_position(&one, &saved)) break;
        trick(&one);
        trick(&two);
    }
    r->winner = -1;
    r->cards = two.cards;
    r->tricks = two.tricks;
    r->prefix_cards = one.cards;
    r->prefix_tricks = one.tricks;
    r->cycle_cards = two.cards - one.cards;
    r->cycle_tricks = two.tricks - one.tricks;
}

/* SplitMix64, as ratscrew.shuffle.SeededRandom. */
static uint64_t next_u64(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* A random deal, as ratscrew.bmn.random_deal: a partial Fisher-Yates picks the places of the 16 court
 * cards among 52 (SeededRandom.below: a draw at or above 2**64 minus 2**64 mod n is drawn again), and
 * place k of the deck goes to hand k % 2 as its card k / 2. Unrolled, every modulus is a constant.
 * `court_at[c]` receives the place of the c-th court card drawn (demand 1 + c / 4). */
static inline void deal_courts(uint64_t *state, uint8_t court_at[16]) {
    uint8_t places[52];
    for (int i = 0; i < 52; i++) places[i] = (uint8_t)i;
#pragma GCC unroll 16
    for (int i = 0; i < 16; i++) {
        const uint64_t n = (uint64_t)(52 - i), rest = (0 - n) % n;
        uint64_t draw;
        do draw = next_u64(state);
        while (rest != 0 && draw >= 0 - rest);
        int j = i + (int)(draw % n);
        uint8_t place = places[j];
        places[j] = places[i];
        places[i] = place;
        court_at[i] = place;
    }
}

static void random_deal(uint64_t *state, Hand *first, Hand *second) {
    uint8_t court_at[16];
    uint64_t court[2] = {0, 0}, lo[2] = {0, 0}, hi[2] = {0, 0};
    deal_courts(state, court_at);
    for (int c = 0; c < 16; c++) {
        int place = court_at[c];
        uint64_t bit = 1ULL << (place >> 1), d = (uint64_t)(c / 4);
        court[place & 1] |= bit;
        lo[place & 1] |= (d & 1) * bit;
        hi[place & 1] |= (d >> 1) * bit;
    }
    *first = (Hand){court[0], lo[0], hi[0], 0, 26};
    *second = (Hand){court[1], lo[1], hi[1], 0, 26};
}

/* One of the longest deals of a run: the hunt starts from these, and `bmn --random` names the longest. More
 * cards rank higher, then the earlier deal. */
typedef struct {
    Hand first, second;
    long long cards, tricks, index;
} Kept;

static inline int ranks_above(const Kept *a, const Kept *b) {
    return a->cards != b->cards ? a->cards > b->cards : a->index < b->index;
}

/* Puts `k` among the `*n` kept (best first, at most `keep`) if it ranks above the last of them. */
static void keep_longest(Kept *kept, int *n, int keep, const Kept *k) {
    if (keep == 0 || (*n == keep && !ranks_above(k, &kept[*n - 1]))) return;
    int i = *n < keep ? (*n)++ : keep - 1;
    while (i > 0 && ranks_above(k, &kept[i - 1])) {
        kept[i] = kept[i - 1];
        i--;
    }
    kept[i] = *k;
}

#define ENDLESS_KEPT 16 /* endless deals named per run, the first ones dealt */

/* A freshly dealt hand (its cards at places 0 to 25 of the ring) as demands '0'-'4'. */
static PyObject *dealt_hand(Hand h) {
    char text[MAX_CARDS];
    int n = length(h);
    for (int i = 0; i < n; i++) {
        int court = (int)((h.court >> i) & 1), demand = 1 + (int)((h.lo >> i) & 1) + 2 * (int)((h.hi >> i) & 1);
        text[i] = (char)('0' + (court ? demand : 0));
    }
    return PyUnicode_FromStringAndSize(text, n);
}

static int read_hand(PyObject *obj, uint8_t *out, int *n) {
    Py_buffer view;
    if (PyObject_GetBuffer(obj, &view, PyBUF_SIMPLE) < 0) return -1;
    if (view.len > MAX_CARDS) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "a hand holds at most 52 cards");
        return -1;
    }
    const uint8_t *src = view.buf;
    for (Py_ssize_t i = 0; i < view.len; i++) {
        uint8_t c = src[i] >= '0' ? (uint8_t)(src[i] - '0') : src[i];
        if (c > 4) {
            PyBuffer_Release(&view);
            PyErr_SetString(PyExc_ValueError, "hand cards must be demands 0-4");
            return -1;
        }
        out[i] = c;
    }
    *n = (int)view.len;
    PyBuffer_Release(&view);
    return 0;
}

static PyObject *py_play2(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *first, *second;
    uint8_t a[MAX_CARDS], b[MAX_CARDS];
    int na, nb;
    if (!PyArg_ParseTuple(args, "OO", &first, &second)) return NULL;
    if (read_hand(first, a, &na) < 0 || read_hand(second, b, &nb) < 0) return NULL;
    if (na + nb > MAX_CARDS) {
        PyErr_SetString(PyExc_ValueError, "the hands hold more than 52 cards");
        return NULL;
    }
    Hand first_hand, second_hand;
    set_hand(&first_hand, a, na);
    set_hand(&second_hand, b, nb);
    Result r;
    Py_BEGIN_ALLOW_THREADS
    play(&first_hand, &second_hand, &r);
    Py_END_ALLOW_THREADS
    return Py_BuildValue("(iLLLLLL)", r.winner, r.cards, r.tricks, r.prefix_cards, r.prefix_tricks,
                         r.cycle_cards, r.cycle_tricks);
}

/* Counts per game length, grown as longer games come. */
typedef struct {
    long long *counts;
    long long size;
} Lengths;

static int count_length(Lengths *l, long long cards) {
    if (cards >= l->size) {
        long long size = l->size ? l->size : 1024;
        while (size <= cards) size *= 2;
        long long *counts = realloc(l->counts, (size_t)size * sizeof(long long));
        if (counts == NULL) return -1;
        memset(counts + l->size, 0, (size_t)(size - l->size) * sizeof(long long));
        l->counts = counts;
        l->size = size;
    }
    l->counts[cards]++;
    return 0;
}

static PyObject *kept_entry(const Kept *k, int ended) {
    if (ended) return Py_BuildValue("(NNLLL)", dealt_hand(k->first), dealt_hand(k->second), k->cards, k->tricks, k->index);
    return Py_BuildValue("(NNL)", dealt_hand(k->first), dealt_hand(k->second), k->index);
}

static PyObject *kept_list(const Kept *kept, int n, int ended) {
    PyObject *out = PyList_New(n);
    for (int i = 0; out != NULL && i < n; i++) {
        PyObject *item = kept_entry(&kept[i], ended);
        if (item == NULL) Py_CLEAR(out);
        else PyList_SET_ITEM(out, i, item);
    }
    return out;
}

/* play_random(games, seed, keep): random deals from one stream, as ratscrew.bmn.random_deal deals them. */
static PyObject *py_play_random(PyObject *self, PyObject *args) {
    (void)self;
    long long games;
    unsigned long long seed;
    int keep;
    if (!PyArg_ParseTuple(args, "LKi", &games, &seed, &keep)) return NULL;
    if (keep < 0 || keep > 100000) {
        PyErr_SetString(PyExc_ValueError, "keep must be from 0 to 100000");
        return NULL;
    }
    Kept *kept = malloc(sizeof(Kept) * (size_t)(keep ? keep : 1)), endless[ENDLESS_KEPT];
    if (kept == NULL) return PyErr_NoMemory();
    uint64_t state = seed;
    long long total = 0, ended = 0, loops = 0, first_wins = 0, tricks = 0, tricks_squared = 0, longest = 0;
    Lengths lengths = {NULL, 0};
    int n_kept = 0, n_endless = 0, failed = 0;
    Py_BEGIN_ALLOW_THREADS
    for (long long g = 0; g < games; g++) {
        Kept k;
        Result r;
        random_deal(&state, &k.first, &k.second);
        play(&k.first, &k.second, &r);
        k.index = g;
        if (r.winner < 0) {
            if (n_endless < ENDLESS_KEPT) endless[n_endless++] = k;
            loops++;
            continue;
        }
        ended++;
        total += r.cards;
        tricks += r.tricks;
        tricks_squared += r.tricks * r.tricks;
        first_wins += r.winner == 0;
        if (r.cards > longest) longest = r.cards;
        if (count_length(&lengths, r.cards) < 0) {
            failed = 1;
            break;
        }
        k.cards = r.cards;
        k.tricks = r.tricks;
        keep_longest(kept, &n_kept, keep, &k);
    }
    Py_END_ALLOW_THREADS
    PyObject *counts = NULL, *top = NULL, *named = NULL, *out = NULL;
    if (failed) {
        PyErr_NoMemory();
        goto done;
    }
    counts = PyList_New(ended ? longest + 1 : 0);
    if (counts == NULL) goto done;
    for (long long c = 0; ended && c <= longest; c++) {
        PyObject *v = PyLong_FromLongLong(lengths.counts[c]);
        if (v == NULL) goto done;
        PyList_SET_ITEM(counts, c, v);
    }
    top = kept_list(kept, n_kept, 1);
    named = kept_list(endless, n_endless, 0);
    if (top != NULL && named != NULL)
        out = Py_BuildValue("(LLLLLOOOLK)", total, ended, loops, first_wins, tricks, counts, top, named, tricks_squared,
                            (unsigned long long)state);
done:
    Py_XDECREF(counts);
    Py_XDECREF(top);
    Py_XDECREF(named);
    free(kept);
    free(lengths.counts);
    return out;
}

/* skip_deals(seed, count): the stream's state after dealing `count` deals from `seed` without playing them, so
 * a run can be cut into chunks that start part way through a stream. Dealing costs a few percent of playing. */
static PyObject *py_skip_deals(PyObject *self, PyObject *args) {
    (void)self;
    unsigned long long seed;
    long long count;
    if (!PyArg_ParseTuple(args, "KL", &seed, &count)) return NULL;
    if (count < 0) {
        PyErr_SetString(PyExc_ValueError, "count must not be negative");
        return NULL;
    }
    uint64_t state = seed;
    uint8_t court_at[16];
    Py_BEGIN_ALLOW_THREADS
    for (long long i = 0; i < count; i++) deal_courts(&state, court_at);
    Py_END_ALLOW_THREADS
    return PyLong_FromUnsignedLongLong((unsigned long long)state);
}

static PyMethodDef methods[] = {
    {"play2", py_play2, METH_VARARGS,
     "play2(first, second) -> (winner or -1, cards, tricks, prefix_cards, prefix_tricks, cycle_cards, cycle_tricks)"},
    {"play_random", py_play_random, METH_VARARGS,
     "play_random(games, seed, keep) -> (total cards of ended games, ended games, loops, wins of the first hand, "
     "total tricks of ended games, [games ended after c cards for c = 0, 1, ...], "
     "[(first, second, cards, tricks, index) of the `keep` longest ended games, longest first], "
     "[(first, second, index) of the first 16 endless deals], total of the squared tricks of ended games, "
     "the stream's state after the last deal)"},
    {"skip_deals", py_skip_deals, METH_VARARGS,
     "skip_deals(seed, count) -> the stream's state after dealing `count` deals without playing them"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_bmn_fast",
                                    "Two-hand Beggar-my-neighbour in C.", -1, methods};

PyMODINIT_FUNC PyInit__bmn_fast(void) { return PyModule_Create(&module); }
