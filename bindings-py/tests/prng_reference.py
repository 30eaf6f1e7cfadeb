"""An independent pure-Python implementation of gunbai-dice-v1.

Used by the tests to check that the seeded faces pinned in the golden
vectors follow the documented algorithm (xoshiro256** seeded by SplitMix64,
faces by rejection below 2^64 mod n, then x mod n + 1), not merely whatever
the Rust code happens to produce.
"""

MASK = (1 << 64) - 1


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & MASK


class Reference:
    def __init__(self, seed: int) -> None:
        sm = seed
        s = []
        for _ in range(4):
            sm = (sm + 0x9E3779B97F4A7C15) & MASK
            z = sm
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
            s.append(z ^ (z >> 31))
        self.s = s

    def next_u64(self) -> int:
        s = self.s
        result = (_rotl((s[1] * 5) & MASK, 7) * 9) & MASK
        t = (s[1] << 17) & MASK
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = _rotl(s[3], 45)
        return result

    def face(self, sides: int) -> int:
        reject_below = (1 << 64) % sides
        while True:
            x = self.next_u64()
            if x >= reject_below:
                return x % sides + 1


def faces(seed: int, sides: int, n: int) -> list[int]:
    r = Reference(seed)
    return [r.face(sides) for _ in range(n)]
