/*
 * Optional accelerator for two-hand Beggar-my-neighbour (ratscrew.bmn uses it when it was built).
 *
 * It plays exactly the conventions of ratscrew.bmn.play_bmn and of the engine's "beggar" preset, and
 * deals random hands with the same SplitMix64 stream and partial Fisher-Yates as ratscrew.bmn.random_deal,
 * so every figure it gives is the one the pure-Python path gives, only sooner. The tests check both paths
 * against each other and against the engine.
 *
 * Endless deals are found with Brent's cycle detection on the positions between tricks, which needs
 * no table of past positions: one saved position, compared once per trick.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define CAP 64 /* ring buffer size per hand: a power of two above 52 */
#define MASK (CAP - 1)

typedef struct {
    uint8_t card[2][CAP];
    int head[2];
    int len[2];
    int leader;
    int total;
    long long cards;
    long long tricks;
    int winner; /* -1 while the game goes on */
} Game;

static void push(Game *g, int p, uint8_t c) {
    g->card[p][(g->head[p] + g->len[p]) & MASK] = c;
    g->len[p]++;
}

static uint8_t pop(Game *g, int p) {
    uint8_t c = g->card[p][g->head[p]];
    g->head[p] = (g->head[p] + 1) & MASK;
    g->len[p]--;
    return c;
}

static void start(Game *g, const uint8_t *a, int na, const uint8_t *b, int nb) {
    memset(g, 0, sizeof(*g));
    for (int i = 0; i < na; i++) push(g, 0, a[i]);
    for (int i = 0; i < nb; i++) push(g, 1, b[i]);
    g->total = na + nb;
    g->winner = -1;
    if (na == 0) g->winner = 1;
    else if (nb == 0) g->winner = 0;
}

/* Play one trick: from the leader's first card until a pile is collected or the game ends. */
static void trick(Game *g) {
    uint8_t pile[128];
    int size = 0, player = g->leader, owed = 0, challenger = -1;
    for (;;) {
        if (g->len[player] == 0) {
            /* Must play or pay with no card: out, and the other player takes the pile. */
            g->winner = 1 - player;
            g->tricks += 1;
            return;
        }
        uint8_t c = pop(g, player);
        pile[size++] = c;
        g->cards++;
        if (c) {
            challenger = player;
            owed = c;
            player = 1 - player;
        } else if (owed) {
            if (--owed == 0) {
                for (int i = 0; i < size; i++) push(g, challenger, pile[i]);
                g->tricks++;
                g->leader = challenger;
                if (g->len[challenger] == g->total) g->winner = challenger;
                return;
            }
        } else {
            player = 1 - player;
        }
    }
}

/* A position between tricks, laid out flat so two can be compared with memcmp. */
typedef struct {
    uint8_t bytes[2 * CAP + 3];
} Position;

static void position(const Game *g, Position *out) {
    memset(out, 0, sizeof(*out));
    out->bytes[0] = (uint8_t)g->len[0];
    out->bytes[1] = (uint8_t)g->len[1];
    out->bytes[2] = (uint8_t)g->leader;
    int k = 3;
    for (int p = 0; p < 2; p++)
        for (int i = 0; i < g->len[p]; i++) out->bytes[k++] = g->card[p][(g->head[p] + i) & MASK];
}

static int same(const Game *a, const Game *b) {
    Position x, y;
    position(a, &x);
    position(b, &y);
    return memcmp(&x, &y, sizeof(x)) == 0;
}

typedef struct {
    int winner;
    long long cards, tricks;
    long long prefix_cards, prefix_tricks, cycle_cards, cycle_tricks;
} Result;

static void play(const uint8_t *a, int na, const uint8_t *b, int nb, Result *r) {
    Game hare, tortoise;
    start(&hare, a, na, b, nb);
    tortoise = hare;
    long long power = 1, lam = 0;
    memset(r, 0, sizeof(*r));
    /* Brent: the tortoise waits at powers of two while the hare runs; a meeting gives the cycle length. */
    for (;;) {
        if (hare.winner >= 0) {
            r->winner = hare.winner;
            r->cards = hare.cards;
            r->tricks = hare.tricks;
            return;
        }
        trick(&hare);
        lam++;
        if (hare.winner < 0 && same(&hare, &tortoise)) break;
        if (lam == power) {
            tortoise = hare;
            power *= 2;
            lam = 0;
        }
    }
    /* The cycle start: two runners lam tricks apart from the deal meet at its first position. */
    Game first, second;
    start(&first, a, na, b, nb);
    second = first;
    for (long long i = 0; i < lam; i++) trick(&second);
    while (!same(&first, &second)) {
        trick(&first);
        trick(&second);
    }
    r->winner = -1;
    r->cards = second.cards;
    r->tricks = second.tricks;
    r->prefix_cards = first.cards;
    r->prefix_tricks = first.tricks;
    r->cycle_cards = second.cards - first.cards;
    r->cycle_tricks = second.tricks - first.tricks;
}

/* SplitMix64 and the bounded draw of ratscrew.shuffle.SeededRandom. */
static uint64_t next_u64(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static uint64_t below(uint64_t *state, uint64_t n) {
    uint64_t rest = (0 - n) % n; /* 2**64 mod n */
    for (;;) {
        uint64_t draw = next_u64(state);
        if (rest == 0 || draw < 0 - rest) return draw % n;
    }
}

static void random_deal(uint64_t *state, uint8_t *a, uint8_t *b) {
    static const char demands[] = "1111222233334444";
    int positions[52];
    uint8_t deck[52];
    for (int i = 0; i < 52; i++) {
        positions[i] = i;
        deck[i] = 0;
    }
    for (int i = 0; i < 16; i++) {
        int j = i + (int)below(state, (uint64_t)(52 - i));
        int t = positions[i];
        positions[i] = positions[j];
        positions[j] = t;
        deck[positions[i]] = (uint8_t)(demands[i] - '0');
    }
    for (int i = 0; i < 26; i++) {
        a[i] = deck[2 * i];
        b[i] = deck[2 * i + 1];
    }
}

static int read_hand(PyObject *obj, uint8_t *out, int *n) {
    Py_buffer view;
    if (PyObject_GetBuffer(obj, &view, PyBUF_SIMPLE) < 0) return -1;
    if (view.len > 52) {
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
    PyObject *first, *second;
    uint8_t a[52], b[52];
    int na, nb;
    if (!PyArg_ParseTuple(args, "OO", &first, &second)) return NULL;
    if (read_hand(first, a, &na) < 0 || read_hand(second, b, &nb) < 0) return NULL;
    if (na + nb > 52) {
        PyErr_SetString(PyExc_ValueError, "the hands hold more than 52 cards");
        return NULL;
    }
    Result r;
    Py_BEGIN_ALLOW_THREADS
    play(a, na, b, nb, &r);
    Py_END_ALLOW_THREADS
    return Py_BuildValue("(iLLLLLL)", r.winner, r.cards, r.tricks, r.prefix_cards, r.prefix_tricks,
                         r.cycle_cards, r.cycle_tricks);
}

static PyObject *py_play_random(PyObject *self, PyObject *args) {
    long long games;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "LK", &games, &seed)) return NULL;
    uint64_t state = seed;
    long long total = 0, ended = 0, longest = 0, loops = 0;
    Py_BEGIN_ALLOW_THREADS
    for (long long g = 0; g < games; g++) {
        uint8_t a[26], b[26];
        Result r;
        random_deal(&state, a, b);
        play(a, 26, b, 26, &r);
        if (r.winner < 0) {
            loops++;
            continue;
        }
        ended++;
        total += r.cards;
        if (r.cards > longest) longest = r.cards;
    }
    Py_END_ALLOW_THREADS
    return Py_BuildValue("(LLLL)", total, ended, longest, loops);
}

static PyMethodDef methods[] = {
    {"play2", py_play2, METH_VARARGS,
     "play2(first, second) -> (winner or -1, cards, tricks, prefix_cards, prefix_tricks, cycle_cards, cycle_tricks)"},
    {"play_random", py_play_random, METH_VARARGS,
     "play_random(games, seed) -> (total cards of ended games, ended games, longest, loops)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_bmn_fast",
                                    "Two-hand Beggar-my-neighbour in C (optional).", -1, methods};

PyMODINIT_FUNC PyInit__bmn_fast(void) { return PyModule_Create(&module); }
