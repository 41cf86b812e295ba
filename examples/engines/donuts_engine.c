/*
 * A Donuts engine in C, written only against the Donuts Engine Protocol
 * (docs/engine_protocol.md) and the rules of the game: it shares no code with donuts_ai.
 *
 * It plays a one-ply greedy move: a five if it has one; else a move after which the
 * opponent cannot make five at once; among those the most flips, then a seeded random
 * choice. It computes the legal moves itself from the position's layout and moves, so
 * it implements the rules: the line rule on the last placed donut's line (an open pick
 * when that line is full), insertion flips (group or single), five in a row, a player
 * whose pool is empty being skipped, and the end of the game.
 *
 *     cc -O2 -o donuts_engine donuts_engine.c
 *     donuts-ai tournament engine:./donuts_engine greedy --games 4
 *
 * Squares are numbered rank * 6 + file (a1 = 0, f6 = 35); diagnostics go to stderr.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIZE 6
#define SQUARES 36
#define EMPTY (-1)
#define OVER (-1)
#define NONE (-1)
#define MAX_LINE 65536
#define MAX_WORDS 256

/* Line directions by layout symbol: '-' '|' '/' '\', as (file, rank) steps. */
static const int DX[4] = {1, 0, 1, 1};
static const int DY[4] = {0, 1, 1, -1};
static const char SYMBOLS[] = "-|/\\";

typedef struct {
    int dir[SQUARES];  /* the line printed on each square, 0..3 */
    int cell[SQUARES]; /* EMPTY, 0 (Chocolate) or 1 (Vanilla) */
    int turn;          /* the side to move, or OVER */
    int last;          /* the last placed square, or NONE before the first placement */
    int placed[2];
    int donuts; /* each player's pool */
    int single; /* the "single" insertion rule instead of "group" */
} Game;

static Game game;
static int have_position = 0;
static uint64_t seed = 1, rng_state = 1;

static int inside(int x, int y) { return x >= 0 && x < SIZE && y >= 0 && y < SIZE; }
static int sq_of(int x, int y) { return y * SIZE + x; }

static uint64_t next_random(void) {
    /* xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ULL;
}

static void reseed(void) { rng_state = seed ? seed : 0x9E3779B97F4A7C15ULL; }

/* Legal squares for the side to move; returns how many. */
static int legal_moves(const Game *g, int *out) {
    int n = 0;
    if (g->turn == OVER) return 0;
    if (g->last != NONE) {
        int d = g->dir[g->last], x0 = g->last % SIZE, y0 = g->last / SIZE;
        for (int sign = -1; sign <= 1; sign += 2) {
            for (int k = 1;; k++) {
                int x = x0 + sign * k * DX[d], y = y0 + sign * k * DY[d];
                if (!inside(x, y)) break;
                if (g->cell[sq_of(x, y)] == EMPTY) out[n++] = sq_of(x, y);
            }
        }
        if (n > 0) return n;
    }
    for (int s = 0; s < SQUARES; s++)
        if (g->cell[s] == EMPTY) out[n++] = s; /* the first move, or an open pick */
    return n;
}

/* Opponent squares that placing `mover` on empty `sq` flips; returns how many. */
static int flips(const Game *g, int sq, int mover, int *out) {
    int n = 0, opp = 1 - mover, x0 = sq % SIZE, y0 = sq / SIZE;
    for (int d = 0; d < 4; d++) { /* every axis, whatever the printed line */
        int ok = 1, ends[2];
        for (int e = 0; e < 2; e++) {
            int sign = e ? -1 : 1, k = 1;
            while (inside(x0 + sign * k * DX[d], y0 + sign * k * DY[d]) &&
                   g->cell[sq_of(x0 + sign * k * DX[d], y0 + sign * k * DY[d])] == mover)
                k++; /* over the mover's own run */
            int ex = x0 + sign * k * DX[d], ey = y0 + sign * k * DY[d];
            if (!inside(ex, ey) || g->cell[sq_of(ex, ey)] != opp) {
                ok = 0;
                break;
            }
            if (g->single) { /* o X o alone: adjacent, and no opposing donut beyond */
                int bx = ex + sign * DX[d], by = ey + sign * DY[d];
                if (k != 1 || (inside(bx, by) && g->cell[sq_of(bx, by)] == opp)) {
                    ok = 0;
                    break;
                }
            }
            ends[e] = sq_of(ex, ey);
        }
        if (ok) {
            out[n++] = ends[0];
            out[n++] = ends[1];
        }
    }
    return n;
}

static int has_five(const Game *g, int color) {
    for (int s = 0; s < SQUARES; s++) {
        for (int d = 0; d < 4; d++) {
            int k = 0, x = s % SIZE, y = s / SIZE;
            while (k < 5 && inside(x + k * DX[d], y + k * DY[d]) && g->cell[sq_of(x + k * DX[d], y + k * DY[d])] == color) k++;
            if (k == 5) return 1;
        }
    }
    return 0;
}

/* After `mover`'s turn: the opponent moves unless its pool is empty; the game ends
 * when both pools are empty or the board is full. */
static void pass_turn(Game *g, int mover) {
    int full = 1;
    for (int s = 0; s < SQUARES; s++)
        if (g->cell[s] == EMPTY) full = 0;
    if (full || has_five(g, 0) || has_five(g, 1))
        g->turn = OVER;
    else if (g->placed[1 - mover] < g->donuts)
        g->turn = 1 - mover;
    else if (g->placed[mover] < g->donuts)
        g->turn = mover;
    else
        g->turn = OVER;
}

static void play(Game *g, int sq) {
    int mover = g->turn, flipped[8];
    int n = flips(g, sq, mover, flipped);
    g->cell[sq] = mover;
    for (int i = 0; i < n; i++) g->cell[flipped[i]] = mover;
    g->placed[mover]++;
    g->last = sq;
    pass_turn(g, mover);
}

/* A forfeited turn: the donut stays in the pool, the line constraint stays. */
static void forfeit(Game *g) { pass_turn(g, g->turn); }

static int parse_square(const char *w) {
    if (strlen(w) != 2 || w[0] < 'a' || w[0] > 'f' || w[1] < '1' || w[1] > '6') return NONE;
    return sq_of(w[0] - 'a', w[1] - '1');
}

static int is_legal(const Game *g, int sq) {
    int moves[SQUARES], n = legal_moves(g, moves);
    for (int i = 0; i < n; i++)
        if (moves[i] == sq) return 1;
    return 0;
}

/* position layout L [donuts n] [insertion group|single] [moves m1 m2 ...] */
static int set_position(char **w, int n) {
    Game g;
    memset(&g, 0, sizeof g);
    g.donuts = 15;
    g.last = NONE;
    if (n < 3 || strcmp(w[1], "layout") != 0 || strlen(w[2]) != SQUARES) {
        fprintf(stderr, "position: expected 'layout' and 36 line symbols\n");
        return 0;
    }
    for (int i = 0; i < SQUARES; i++) {
        const char *p = strchr(SYMBOLS, w[2][i]);
        if (!p || !*p) {
            fprintf(stderr, "position: %c is not a line symbol\n", w[2][i]);
            return 0;
        }
        g.dir[sq_of(i % SIZE, SIZE - 1 - i / SIZE)] = (int)(p - SYMBOLS); /* rank 6 first */
        g.cell[i] = EMPTY;
    }
    int i = 3;
    for (; i < n && strcmp(w[i], "moves") != 0; i += 2) {
        if (i + 1 >= n) {
            fprintf(stderr, "position: %s needs a value\n", w[i]);
            return 0;
        }
        if (strcmp(w[i], "donuts") == 0) {
            g.donuts = atoi(w[i + 1]);
            if (g.donuts < 1 || g.donuts > SQUARES) {
                fprintf(stderr, "position: donuts must be 1..36\n");
                return 0;
            }
        } else if (strcmp(w[i], "insertion") == 0 && (!strcmp(w[i + 1], "group") || !strcmp(w[i + 1], "single"))) {
            g.single = strcmp(w[i + 1], "single") == 0;
        } else {
            fprintf(stderr, "position: unknown %s %s\n", w[i], w[i + 1]);
            return 0;
        }
    }
    g.turn = 0; /* Chocolate places first */
    for (i++; i < n; i++) {
        int sq = parse_square(w[i]);
        if (g.turn == OVER) {
            fprintf(stderr, "position: move %s after the end of the game\n", w[i]);
            return 0;
        }
        if (strcmp(w[i], "pass") == 0) {
            forfeit(&g);
        } else if (sq != NONE && is_legal(&g, sq)) {
            play(&g, sq);
        } else {
            fprintf(stderr, "position: illegal move %s\n", w[i]);
            return 0;
        }
    }
    game = g;
    return 1;
}

/* Whether the side to move after `g` (the opponent of `mover`) can make five at once. */
static int opponent_wins_next(const Game *g, int mover) {
    int moves[SQUARES], n;
    if (g->turn != 1 - mover) return 0;
    n = legal_moves(g, moves);
    for (int i = 0; i < n; i++) {
        Game h = *g;
        play(&h, moves[i]);
        if (has_five(&h, 1 - mover)) return 1;
    }
    return 0;
}

static void go(void) {
    int moves[SQUARES], n, best = NONE, flipped[8];
    long best_key = -1;
    if (!have_position || (n = legal_moves(&game, moves)) == 0) {
        fprintf(stderr, "go: no position, or the game is over\n");
        printf("bestmove none\n");
        return;
    }
    int mover = game.turn;
    for (int i = 0; i < n; i++) {
        Game h = game;
        int flipped_count = flips(&h, moves[i], mover, flipped);
        play(&h, moves[i]);
        long key;
        if (has_five(&h, mover))
            key = 3L << 40;
        else
            key = ((long)(opponent_wins_next(&h, mover) ? 1 : 2) << 40) | ((long)flipped_count << 32);
        key |= (long)(next_random() >> 33); /* the seeded tie-break, below the flips */
        if (key > best_key) best_key = key, best = moves[i];
    }
    printf("info depth 1 nodes %d\n", n);
    printf("bestmove %c%c\n", 'a' + best % SIZE, '1' + best / SIZE);
}

int main(void) {
    static char line[MAX_LINE];
    char *w[MAX_WORDS];
    setvbuf(stdout, NULL, _IOLBF, 0);
    while (fgets(line, sizeof line, stdin)) {
        int n = 0;
        for (char *t = strtok(line, " \t\r\n"); t && n < MAX_WORDS; t = strtok(NULL, " \t\r\n")) w[n++] = t;
        if (n == 0) continue;
        if (!strcmp(w[0], "dep")) {
            printf("id name donuts-c-example\nid author the Donuts Engine Protocol example\n");
            printf("option name seed type spin default 1 min 0 max 9223372036854775807\ndepok\n");
        } else if (!strcmp(w[0], "setoption") && n >= 5 && !strcmp(w[2], "seed") && !strcmp(w[3], "value")) {
            seed = strtoull(w[4], NULL, 10);
            reseed();
        } else if (!strcmp(w[0], "isready")) {
            printf("readyok\n");
        } else if (!strcmp(w[0], "newgame")) {
            reseed();
            have_position = 0;
        } else if (!strcmp(w[0], "position")) {
            have_position = set_position(w, n);
        } else if (!strcmp(w[0], "go")) {
            go();
        } else if (!strcmp(w[0], "quit")) {
            return 0;
        } else if (strcmp(w[0], "stop") != 0) { /* stop: every go is answered at once */
            fprintf(stderr, "ignored: %s\n", w[0]);
        }
        fflush(stdout);
    }
    return 0;
}
