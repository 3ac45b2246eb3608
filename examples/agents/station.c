/* An exec: agent for cardsim holdem in C: the protocol's skeleton, playing
 * as the station (always check or call).
 *
 *     gcc -O2 -o station examples/agents/station.c
 *     cardsim holdem --players 3 --agents 'exec:./station,tag,random'
 *
 * cardsim writes one JSON object a line on standard input: first the hello,
 * {"protocol":1,"cardsim":"...","game":"holdem"}, answered with
 * {"protocol":1,"name":"..."}; then one view per decision (docs/agents.md),
 * answered with one action a line: f, cc or cbr AMOUNT. A real agent would
 * parse the view here (a JSON library, or strstr for the few fields it
 * needs: "legal":{"fold":...,"to_call":N,...}). Every answer is flushed:
 * cardsim waits for it before it sends the next view. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    size_t cap = 1 << 16;
    char *line = malloc(cap);
    if (line == NULL)
        return 1;
    int hello = 1;
    while (fgets(line, (int)cap, stdin) != NULL) {
        /* A view longer than the buffer arrives in pieces: answer once,
         * at its end. */
        if (strchr(line, '\n') == NULL && !feof(stdin))
            continue;
        if (hello) {
            fputs("{\"protocol\":1,\"name\":\"station in C\"}\n", stdout);
            hello = 0;
        } else {
            fputs("cc\n", stdout);
        }
        fflush(stdout);
    }
    free(line);
    return 0;
}
