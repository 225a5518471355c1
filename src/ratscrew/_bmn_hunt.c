/*
 * The record hunt's backward search, in C (ratscrew.lab.bmn_family is the readable reference, step for step).
 *
 * Two-hand Beggar-my-neighbour is deterministic, so its positions between tricks form a forest: each
 * position leads to exactly one next one, and every game that ends runs down a branch to a finished
 * position. A deal's length is its depth in that forest. A position can have several positions before it
 * (the pile the leader just took, at the bottom of their hand, can be split back onto the two hands in more
 * than one way), so above every position of a long game hang other branches, and any position up there
 * with 26 cards in each hand is a deal whose game runs into the long one. Walking those branches backwards
 * finds deals longer than the one we started from, at a cost of a few operations per position.
 *
 * A position here is two arrays of demands (0 for a number card, 1-4 for J Q K A), top card first: the hand
 * that leads the next trick, and the other one.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define DECK 52
#define HALF 26

typedef struct {
    uint8_t lead[DECK], other[DECK];
    int nl, no;
} Pos;

/* A position waiting on the search's stack, with how many cards and tricks it is above the start. */
typedef struct {
    Pos pos;
    long long cards, tricks;
} Node;

typedef struct {
    Node *items;
    size_t len, cap;
} Stack;

static int grow(Stack *s) {
    size_t cap = s->cap ? 2 * s->cap : 256;
    Node *items = realloc(s->items, cap * sizeof(Node));
    if (items == NULL) return -1;
    s->items = items;
    s->cap = cap;
    return 0;
}

static int push(Stack *s, const Pos *p, long long cards, long long tricks) {
    if (s->len == s->cap && grow(s) < 0) return -1;
    Node *n = &s->items[s->len++];
    n->pos = *p;
    n->cards = cards;
    n->tricks = tricks;
    return 0;
}

static int same(const Pos *a, const Pos *b) {
    return a->nl == b->nl && a->no == b->no && memcmp(a->lead, b->lead, (size_t)a->nl) == 0 &&
           memcmp(a->other, b->other, (size_t)a->no) == 0;
}

/* One trick forward. Returns the cards played, or 0 when the game ends during it (p is then left as is). */
static int trick(Pos *p) {
    const uint8_t *hand[2] = {p->lead, p->other};
    int len[2] = {p->nl, p->no}, at[2] = {0, 0};
    uint8_t pile[DECK];
    int size = 0, player = 0, owed = 0, challenger = -1;
    for (;;) {
        if (at[player] == len[player]) return 0; /* must play with no card */
        uint8_t card = hand[player][at[player]++];
        pile[size++] = card;
        if (card) {
            challenger = player;
            owed = card;
            player ^= 1;
        } else if (owed) {
            if (--owed == 0) break;
        } else {
            player ^= 1;
        }
    }
    int loser = challenger ^ 1;
    if (at[loser] == len[loser]) return 0; /* the winner holds every card */
    Pos next;
    next.nl = len[challenger] - at[challenger] + size;
    memcpy(next.lead, hand[challenger] + at[challenger], (size_t)(len[challenger] - at[challenger]));
    memcpy(next.lead + len[challenger] - at[challenger], pile, (size_t)size);
    next.no = len[loser] - at[loser];
    memcpy(next.other, hand[loser] + at[loser], (size_t)next.no);
    *p = next;
    return size;
}

/* The predecessor whose trick opened at place `start` of the leader's hand, its first court card at `court`
 * turned by `player` (0: the leader now, who won the trick; 1: the other): the pile is lead[start..nl), its
 * opening run alternates up to the court card (the card just before it is the other player's), and from
 * the court card on, chain[i] says who played card i. Each card is written to both hands and only the
 * right hand's count moves on, which spares a branch per card. */
static void unplay(const Pos *p, int start, int court, int player, const uint8_t *chain, Pos *out) {
    int first = player ^ ((court - start) & 1); /* who led that trick leads the position before it */
    uint8_t *w = first ? out->other : out->lead, *l = first ? out->lead : out->other;
    int nw = 0, nlo = 0;
    for (int i = start; i < p->nl; i++) {
        int by_loser = i < court ? player ^ ((court - i) & 1) : chain[i];
        w[nw] = l[nlo] = p->lead[i];
        nw += !by_loser;
        nlo += by_loser;
    }
    memcpy(w + nw, p->lead, (size_t)start);
    memcpy(l + nlo, p->other, (size_t)p->no);
    int wl = nw + start, ll = nlo + p->no;
    out->nl = first ? ll : wl;
    out->no = first ? wl : ll;
}

/* Every position one trick before `p`, in the reference's order: the trick's first court card taken from
 * the last one played back along the chain of court cards, and for each, its opening run of number cards
 * from none to all that lie before it. Writes them to out[i].pos and the size of their trick's pile to
 * out[i].cards, and returns how many there are (at most DECK). */
static int predecessors(const Pos *p, Node *out) {
    int n = p->nl, last = n - 1;
    /* the pile must end with a court card and its demand paid in number cards: at most four of them */
    while (last >= 0 && last >= n - 5 && p->lead[last] == 0) last--;
    if (last < 0 || p->lead[last] != n - 1 - last) return 0;
    uint8_t chain[DECK]; /* who played each card from the chain's first court card to the end of the pile */
    int found = 0, court = last, player = 0;
    for (int i = last + 1; i < n; i++) chain[i] = 1; /* the other paid the last demand */
    for (;;) {
        chain[court] = (uint8_t)player;
        int gap = 0;
        while (court - gap - 1 >= 0 && p->lead[court - gap - 1] == 0) gap++;
        for (int run = 0; run <= gap; run++) {
            out[found].cards = n - (court - run);
            unplay(p, court - run, court, player, chain, &out[found++].pos);
        }
        int before = court - gap - 1; /* the court card before the gap, if it can have opened it */
        if (before < 0 || gap >= p->lead[before]) return found;
        for (int i = before + 1; i < court; i++) chain[i] = (uint8_t)player; /* they paid, then turned `court` */
        court = before;
        player ^= 1;
    }
}

/* Search at most `cap` positions above `start`, depth first, skipping the branch through `skip` (the game's
 * own previous position, or NULL), for the deal (26 cards a hand) the most cards above it. A deal more than
 * `*best_cards` above replaces `*best` (ties keep the first found). Returns the positions searched, or -1 when
 * memory runs out. */
static long long search_above(const Pos *start, const Pos *skip, long long cap, Stack *stack, long long *best_cards,
                              long long *best_tricks, Pos *best) {
    stack->len = 0;
    if (push(stack, start, 0, 0) < 0) return -1;
    long long searched = 0;
    while (stack->len > 0 && searched < cap) {
        if (stack->cap - stack->len < DECK + 1 && grow(stack) < 0) return -1;
        /* the node is copied aside and its predecessors written straight into the stack in its place */
        Node node = stack->items[--stack->len];
        searched++;
        if (node.cards > *best_cards && node.pos.nl == HALF && node.pos.no == HALF) {
            *best_cards = node.cards;
            *best_tricks = node.tricks;
            *best = node.pos;
        }
        Node *next = &stack->items[stack->len];
        int count = predecessors(&node.pos, next), kept = 0;
        for (int i = 0; i < count; i++) {
            if (node.cards == 0 && skip != NULL && same(&next[i].pos, skip)) continue;
            if (kept != i) next[kept] = next[i];
            next[kept].cards += node.cards;
            next[kept].tricks = node.tricks + 1;
            kept++;
        }
        stack->len += (size_t)kept;
    }
    return searched;
}

/* ---------------------------------------------------------------------- Python bindings */

static int read_pos(PyObject *lead, PyObject *other, Pos *p) {
    const char *a, *b;
    Py_ssize_t na, nb;
    if (PyBytes_AsStringAndSize(lead, (char **)&a, &na) < 0 || PyBytes_AsStringAndSize(other, (char **)&b, &nb) < 0)
        return -1;
    if (na + nb != DECK) {
        PyErr_SetString(PyExc_ValueError, "the two hands must hold 52 cards between them");
        return -1;
    }
    p->nl = (int)na;
    p->no = (int)nb;
    for (Py_ssize_t i = 0; i < na + nb; i++) {
        char c = i < na ? a[i] : b[i - na];
        if (c < '0' || c > '4') {
            PyErr_SetString(PyExc_ValueError, "cards must be demands '0'-'4'");
            return -1;
        }
        if (i < na)
            p->lead[i] = (uint8_t)(c - '0');
        else
            p->other[i - na] = (uint8_t)(c - '0');
    }
    return 0;
}

static PyObject *hand_bytes(const uint8_t *cards, int n) {
    char text[DECK];
    for (int i = 0; i < n; i++) text[i] = (char)('0' + cards[i]);
    return PyBytes_FromStringAndSize(text, n);
}

static PyObject *pos_tuple(const Pos *p) {
    PyObject *a = hand_bytes(p->lead, p->nl), *b = hand_bytes(p->other, p->no);
    PyObject *out = (a && b) ? PyTuple_Pack(2, a, b) : NULL;
    Py_XDECREF(a);
    Py_XDECREF(b);
    return out;
}

static PyObject *py_predecessors(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *lead, *other;
    Pos p;
    Node before[DECK];
    if (!PyArg_ParseTuple(args, "SS", &lead, &other) || read_pos(lead, other, &p) < 0) return NULL;
    int count = predecessors(&p, before);
    PyObject *out = PyList_New(count);
    if (out == NULL) return NULL;
    for (int i = 0; i < count; i++) {
        PyObject *pos = pos_tuple(&before[i].pos);
        PyObject *item = pos ? Py_BuildValue("(NL)", pos, before[i].cards) : NULL;
        if (item == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, item);
    }
    return out;
}

static PyObject *py_trick(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *lead, *other;
    Pos p;
    if (!PyArg_ParseTuple(args, "SS", &lead, &other) || read_pos(lead, other, &p) < 0) return NULL;
    int cards = trick(&p);
    if (cards == 0) Py_RETURN_NONE;
    PyObject *pos = pos_tuple(&p);
    return pos ? Py_BuildValue("(Ni)", pos, cards) : NULL;
}

/* family(lead, other, cards, tricks, walk, cap): the longest deal found above the first `walk` positions of
 * the game from this deal (which lasts `cards` and `tricks`), at most `cap` positions searched above each. */
static PyObject *py_family(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *lead, *other;
    long long cards, tricks, walk, cap;
    Pos now, prev, best;
    if (!PyArg_ParseTuple(args, "SSLLLL", &lead, &other, &cards, &tricks, &walk, &cap)) return NULL;
    if (read_pos(lead, other, &now) < 0) return NULL;
    Stack stack = {NULL, 0, 0};
    long long best_cards = cards, best_tricks = tricks, searched = 0, played = 0, turns = 0;
    int failed = 0;
    Py_BEGIN_ALLOW_THREADS
    for (long long step = 0; step < walk; step++) {
        /* a deal found here lasts the cards above this position plus the cards still to come from it */
        long long rest = cards - played, rel_cards = best_cards - rest, rel_tricks = 0;
        if (rel_cards < 0) rel_cards = 0;
        long long before = rel_cards;
        long long n = search_above(&now, step ? &prev : NULL, cap, &stack, &rel_cards, &rel_tricks, &best);
        if (n < 0) {
            failed = 1;
            break;
        }
        searched += n;
        if (rel_cards > before) {
            best_cards = rest + rel_cards;
            best_tricks = tricks - turns + rel_tricks;
        }
        prev = now;
        int k = trick(&now);
        if (k == 0) break;
        played += k;
        turns++;
    }
    Py_END_ALLOW_THREADS
    free(stack.items);
    if (failed) return PyErr_NoMemory();
    if (best_cards == cards) return Py_BuildValue("(OL)", Py_None, searched);
    PyObject *pos = pos_tuple(&best);
    return pos ? Py_BuildValue("((NLL)L)", pos, best_cards, best_tricks, searched) : NULL;
}


static PyMethodDef methods[] = {
    {"predecessors", py_predecessors, METH_VARARGS,
     "predecessors(lead, other) -> [((lead, other), pile), ...]: the positions one trick before"},
    {"trick", py_trick, METH_VARARGS, "trick(lead, other) -> ((lead, other), cards) or None when the game ends"},
    {"family", py_family, METH_VARARGS,
     "family(lead, other, cards, tricks, walk, cap) -> ((lead, other), cards, tricks) or None, positions searched"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_bmn_hunt",
                                    "The Beggar-my-neighbour record hunt's backward search in C.", -1, methods};

PyMODINIT_FUNC PyInit__bmn_hunt(void) { return PyModule_Create(&module); }
