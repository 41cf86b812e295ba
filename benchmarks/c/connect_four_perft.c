/* Connect Four perft on a plain bitboard: the yardstick for donuts_ai's Numba engine.
 *
 *     cc -O2 -o connect_four_perft connect_four_perft.c
 *     ./connect_four_perft DEPTH [REPEATS]
 *
 * Prints one line per depth 1..DEPTH: "depth leaves seconds", the seconds the best of
 * REPEATS (default 1) timed calls (CLOCK_MONOTONIC), after one untimed warm-up call.
 *
 * The layout is the engine's (donuts_ai/connect_four/_kernels.py, Pascal Pons' layout):
 * column c takes bits 7c .. 7c+6, row 0 at the bottom, bit 7c+6 a sentinel that never
 * holds a stone, so shifts by 1, 6, 7 and 8 never join stones of different columns.
 * A position is (cur, mask, moves): the stones of the side to move, all stones, plies.
 * The counting rule is the engine's too: a move that wins or fills the board ends the
 * game and is a leaf; at depth 1 the playable cells are counted without playing them.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define WIDTH 7
#define HEIGHT 6
#define CELLS (WIDTH * HEIGHT)

static const uint64_t BOTTOM = 0x40810204081ULL;            /* bit 7c for c = 0..6 */
static const uint64_t BOARD = 0x40810204081ULL * 0x3fULL;   /* the 42 cells, no sentinel */

/* Four in a row of `s` along each step: 1 up a column, 7 along a row, 6 and 8 diagonals. */
static int four(uint64_t s) {
    uint64_t p;
    p = s & (s >> 1); if (p & (p >> 2)) return 1;
    p = s & (s >> 7); if (p & (p >> 14)) return 1;
    p = s & (s >> 6); if (p & (p >> 12)) return 1;
    p = s & (s >> 8); if (p & (p >> 16)) return 1;
    return 0;
}

static uint64_t perft(uint64_t cur, uint64_t mask, int moves, int depth) {
    if (depth <= 0) return 1;
    /* The cell each non-full column fills next: the carry of mask + bottom row. */
    uint64_t cells = (mask + BOTTOM) & BOARD;
    if (depth == 1) return (uint64_t)__builtin_popcountll(cells);
    uint64_t total = 0;
    while (cells) {
        uint64_t cell = cells & (0 - cells);
        cells ^= cell;
        if (four(cur | cell) || moves + 1 == CELLS)
            total += 1;
        else
            total += perft(cur ^ mask, mask | cell, moves + 1, depth - 1);
    }
    return total;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s DEPTH [REPEATS]\n", argv[0]);
        return 2;
    }
    int depth = atoi(argv[1]);
    int repeats = argc > 2 ? atoi(argv[2]) : 1;
    if (depth < 1 || depth > CELLS || repeats < 0) {
        fprintf(stderr, "need 1 <= DEPTH <= %d and REPEATS >= 0\n", CELLS);
        return 2;
    }
    /* The empty board read through a volatile: perft is a pure function, and with constant
     * arguments the compiler may call it once and time nothing. */
    volatile uint64_t empty = 0;
    if (repeats == 0) {
        /* One perft at DEPTH alone, untimed: the caller times the process (a record's figure). */
        printf("%d %llu 0\n", depth, (unsigned long long)perft(empty, empty, 0, depth));
        return 0;
    }
    for (int d = 1; d <= depth; d++) {
        uint64_t leaves = perft(empty, empty, 0, d); /* warm-up, not timed */
        double best = 1e300;
        for (int r = 0; r < repeats; r++) {
            double t0 = now();
            leaves = perft(empty, empty, 0, d);
            double dt = now() - t0;
            if (dt < best) best = dt;
        }
        printf("%d %llu %.9f\n", d, (unsigned long long)leaves, best);
        fflush(stdout);
    }
    return 0;
}
