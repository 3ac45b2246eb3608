// A tight Java implementation of the fishing game (docs/rules.md §2, the
// default rules: two players, 27 cards each, a J captures a non-empty row,
// captures go to the back of the pile in row order), written for this
// repository from the rules text alone, to compare speeds on the same deals.
// It plays every deal of a file (54 bytes a deal, faces 0..12 for 2..A and
// 13 for a joker, front of the deck first) to its end or to a proven cycle
// (Brent's algorithm over the states after each capture, as cardsim's
// checked engine), and prints the cards played and the ns per card of each
// timed pass (the thread's CPU time, from /proc/thread-self/schedstat). See README.md beside this file for how it is run.
import java.nio.file.Files;
import java.nio.file.Paths;

public final class Fishing {
    static final int CAP = 64, MASK = 63, JACK = 9, NONE = -1;

    // The state: two ring-buffer piles, the row, each face's row position.
    static final byte[][] pile = new byte[2][CAP];
    static final int[] head = new int[2], len = new int[2];
    static final byte[] row = new byte[CAP];
    static final int[] pos = new int[14];
    static int rowLen, mover;

    // Brent's saved state (mover, pile lengths, piles, row) and its key.
    static final byte[] saved = new byte[2 + 2 * CAP + CAP + 4];
    static int savedKey;
    static long savedCards;

    static int key() { return mover | rowLen << 8 | len[0] << 16; }

    static void save(long cards) {
        int k = 0;
        saved[k++] = (byte) mover;
        for (int p = 0; p < 2; p++) {
            saved[k++] = (byte) len[p];
            for (int i = 0; i < len[p]; i++) saved[k++] = pile[p][(head[p] + i) & MASK];
        }
        saved[k++] = (byte) rowLen;
        for (int i = 0; i < rowLen; i++) saved[k++] = row[i];
        savedKey = key();
        savedCards = cards;
    }

    static boolean same() {
        if (key() != savedKey) return false;
        int k = 1;
        for (int p = 0; p < 2; p++) {
            k++;
            for (int i = 0; i < len[p]; i++)
                if (saved[k++] != pile[p][(head[p] + i) & MASK]) return false;
        }
        k++;
        for (int i = 0; i < rowLen; i++) if (saved[k++] != row[i]) return false;
        return true;
    }

    /** Plays one deal; returns the cards played (to the end, or to the
     *  card where the cycle is proven, negated). */
    static long play(byte[] deals, int at) {
        for (int p = 0; p < 2; p++) {
            head[p] = 0;
            len[p] = 27;
            System.arraycopy(deals, at + 27 * p, pile[p], 0, 27);
        }
        java.util.Arrays.fill(pos, NONE);
        rowLen = 0;
        mover = 0;
        save(0);
        long power = 1, lam = 1, cards = 0;
        while (true) {
            int p = mover;
            byte card = pile[p][head[p]];
            head[p] = (head[p] + 1) & MASK;
            len[p]--;
            cards++;
            int from = (card == JACK && rowLen > 0) ? 0 : pos[card];
            if (from == NONE) {
                pos[card] = rowLen;
                row[rowLen++] = card;
                if (len[p] == 0) return cards;
                mover = p ^ 1;
                continue;
            }
            byte[] pl = pile[p];
            int tail = (head[p] + len[p]) & MASK;
            for (int i = from; i < rowLen; i++) {
                byte f = row[i];
                pl[tail] = f;
                tail = (tail + 1) & MASK;
                pos[f] = NONE;
            }
            pl[tail] = card;
            len[p] += rowLen - from + 1;
            rowLen = from;
            if (same()) return -cards;
            if (power == lam) {
                save(cards);
                power *= 2;
                lam = 0;
            }
            lam++;
        }
    }

    /** CPU time of this thread in ns, from the same Linux file the Rust
     *  side reads (fair on a machine shared with other programs). */
    static long cpuNs() throws Exception {
        String s = new String(Files.readAllBytes(Paths.get("/proc/thread-self/schedstat")));
        return Long.parseLong(s.trim().split("\\s+")[0]);
    }

    public static void main(String[] args) throws Exception {
        byte[] deals = Files.readAllBytes(Paths.get(args[0]));
        int passes = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        int n = deals.length / 54;
        for (int pass = 0; pass <= passes; pass++) {
            long t0 = cpuNs(), cards = 0, check = 0;
            for (int d = 0; d < n; d++) {
                long c = play(deals, d * 54);
                cards += Math.abs(c);
                check = check * 31 + c;
            }
            long ns = cpuNs() - t0;
            // Pass 0 warms the JIT up and is not reported as a timing.
            System.out.printf("%s deals=%d cards=%d check=%d ns_per_card=%.3f%n",
                pass == 0 ? "warmup" : "pass", n, cards, check, (double) ns / cards);
        }
    }
}
