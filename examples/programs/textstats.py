"""Text statistics over dicts and strings: word and bigram counts, the
longest words, a vowel histogram and a per-line summary. Plain Python, no
annotations (record, build --all --profile, then dynac run)."""

HOT = ["words_of", "count_words", "count_bigrams", "vowels", "summary"]
BENCH_SIZES = [4000]  # make bench runs main(*BENCH_SIZES)

TEXT = """It was the best of times, it was the worst of times, it was the age of
wisdom, it was the age of foolishness, it was the epoch of belief, it was the
epoch of incredulity, it was the season of Light, it was the season of Darkness,
it was the spring of hope, it was the winter of despair, we had everything
before us, we had nothing before us, we were all going direct to Heaven, we
were all going direct the other way"""


def words_of(line):
    out = []
    for w in line.lower().replace(",", " ").split():
        if w.isalpha():
            out.append(w)
    return out


def count_words(lines):
    counts = {}
    for line in lines:
        for w in words_of(line):
            counts[w] = counts.get(w, 0) + 1
    return counts


def count_bigrams(lines):
    pairs = {}
    prev = ""
    for line in lines:
        for w in words_of(line):
            if prev:
                key = prev + " " + w
                if key in pairs:
                    pairs[key] += 1
                else:
                    pairs[key] = 1
            prev = w
    return pairs


def vowels(lines):
    hist = {"a": 0, "e": 0, "i": 0, "o": 0, "u": 0}
    for line in lines:
        for ch in line:
            if ch in hist:
                hist[ch] += 1
    return hist


def summary(lines):
    out = []
    for k in range(len(lines)):
        ws = words_of(lines[k])
        longest = ""
        for w in ws:
            if len(w) > len(longest):
                longest = w
        out.append("%d: %d words, longest %s" % (k, len(ws), longest))
    return out


def main(repeat=40):
    lines = TEXT.split("\n") * repeat
    counts = count_words(lines)
    top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
    print("distinct", len(counts), "top", top)
    pairs = count_bigrams(lines)
    print("bigrams", len(pairs), "was the", pairs.get("was the"))
    print("vowels", vowels(lines))
    for s in summary(lines)[:6]:
        print(s)


if __name__ == "__main__":
    import sys
    main(*[int(a) for a in sys.argv[1:]])  # sizes: make bench passes larger ones
