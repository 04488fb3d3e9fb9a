/*
 * A reference engine for the chkobba-engine protocol (docs/engine-protocol.md),
 * version 1, in standard C: it plays a random legal move, for any game.
 *
 * Build:  cc -std=c99 -O2 -o random_engine examples/engines/random_engine.c
 * Play:   chkobba duel engine:./random_engine random
 *
 * It reads one JSON message per line and needs only three things from them,
 * so it looks for them by their keys instead of parsing the JSON in full:
 * "type" (hello, newgame, go, quit), the "seed" of newgame and the "id" and
 * "legal" list of go. The moves are strings without quotes or backslashes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINE (1 << 20)
#define MAX_MOVES 512
#define MAX_MOVE 64

static char line[MAX_LINE];
static unsigned long long state = 88172645463325252ULL;

/* xorshift64: a small generator, the same on every platform. */
static unsigned long long next_random(void) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

/* The text just after "key": in the line (spaces skipped), or NULL. */
static const char *after_key(const char *text, const char *key) {
    char pattern[64];
    const char *p;
    snprintf(pattern, sizeof pattern, "\"%s\"", key);
    p = strstr(text, pattern);
    if (p == NULL) return NULL;
    p += strlen(pattern);
    while (*p == ' ') p++;
    if (*p != ':') return NULL;
    p++;
    while (*p == ' ') p++;
    return p;
}

static int has_type(const char *text, const char *type) {
    const char *p = after_key(text, "type");
    size_t n = strlen(type);
    return p != NULL && *p == '"' && strncmp(p + 1, type, n) == 0 && p[1 + n] == '"';
}

static void answer(const char *text) {
    fputs(text, stdout);
    fputc('\n', stdout);
    fflush(stdout);
}

static void play(const char *text) {
    static char moves[MAX_MOVES][MAX_MOVE];
    const char *id = after_key(text, "id");
    const char *p = after_key(text, "legal");
    int count = 0;
    char out[2 * MAX_MOVE];
    if (id == NULL || p == NULL || *p != '[') {
        answer("{\"type\":\"info\",\"text\":\"a go without an id or legal moves\"}");
        return;
    }
    p++;
    while (*p != '\0' && *p != ']' && count < MAX_MOVES) {
        const char *end;
        size_t n;
        if (*p != '"') {
            p++;
            continue;
        }
        end = strchr(p + 1, '"');
        if (end == NULL) break;
        n = (size_t)(end - p - 1);
        if (n >= MAX_MOVE) n = MAX_MOVE - 1;
        memcpy(moves[count], p + 1, n);
        moves[count][n] = '\0';
        count++;
        p = end + 1;
    }
    if (count == 0) {
        answer("{\"type\":\"info\",\"text\":\"no legal move to choose from\"}");
        return;
    }
    snprintf(out, sizeof out, "{\"type\":\"move\",\"id\":%ld,\"move\":\"%s\"}",
             strtol(id, NULL, 10), moves[next_random() % (unsigned long long)count]);
    answer(out);
}

int main(void) {
    while (fgets(line, sizeof line, stdin) != NULL) {
        if (has_type(line, "hello")) {
            answer("{\"type\":\"id\",\"name\":\"random_engine.c\",\"author\":\"the chkobba authors\"}");
            answer("{\"type\":\"ready\"}");
        } else if (has_type(line, "newgame")) {
            const char *seed = after_key(line, "seed");
            if (seed != NULL) state = strtoull(seed, NULL, 10) * 2654435761ULL + 1;
        } else if (has_type(line, "go")) {
            play(line);
        } else if (has_type(line, "quit")) {
            break;
        }
    }
    return 0;
}
