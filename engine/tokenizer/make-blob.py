#!/usr/bin/env python3
# make-blob.py — turn a .tiktoken vocabulary into the blob winnow-tokens.c reads in place
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   make-blob.py VOCAB.tiktoken SHA256 OUTPUT
#
# Fails unless VOCAB's SHA-256 is SHA256. The blob is embedded uncompressed in a GResource, so
# the C side looks everything up in place: no table is built at run time. Layout (all integers
# little-endian, every section 8-byte aligned):
#
#   header, 80 bytes:
#     0  magic      8 bytes  "WNTOKv2\0"
#     8  n_tokens   u32      ranks are 0 … n_tokens-1
#    12  max_len    u32      longest token, in bytes (at most 255)
#    16  table_bits u32      the hash table has 1 << table_bits slots
#    20  pool_size  u32      bytes of all tokens, concatenated in rank order
#    24  offsets_at u32      where the rank → bytes index starts
#    28  table_at   u32      where the hash table starts
#    32  pool_at    u32      where the pool starts
#    36  hash_check u32      low 32 bits of hash(b"winnow") (C and Python hash alike)
#    40  pairs_at   u32      where the table of two-byte tokens starts
#    44  bytes_at   u32      where the table of one-byte tokens starts
#    48  sha256     32 bytes, the SHA-256 of VOCAB
#   offsets: u32[n_tokens + 1]; token r is pool[offsets[r] : offsets[r + 1]]
#   table:   u64[1 << table_bits], open addressing with linear probing, 0 = empty, else
#              bits  0-17  rank + 1
#              bits 18-38  offset of the token in the pool
#              bits 39-46  length of the token
#              bits 47-63  the top 17 bits of the token's hash (a tag: most misses cost no memcmp)
#            the home slot of a token is hash & ((1 << table_bits) - 1)
#   pairs:   u32[65536]: the rank of the two bytes b0 b1 at [b0 | b1 << 8], or 0xFFFFFFFF
#            (merging starts from every adjacent pair of a piece: this spares those lookups)
#   bytes:   u32[256]: the rank of each single byte (all 256 are tokens)
#   pool:    the token bytes, then 8 zero bytes (pool_size does not count them) so that the
#            C side may read any token of up to 8 bytes as one 64-bit word
#
# The hash (winnow-tokens.c: hash_bytes) must stay identical to hash_bytes() below.

import base64
import hashlib
import struct
import sys

MASK = (1 << 64) - 1
SEED = 0x9E3779B97F4A7C15
M1 = 0xFF51AFD7ED558CCD
M2 = 0xC4CEB9FE1A85EC53

RANK_BITS = 18
OFFSET_BITS = 21
LENGTH_BITS = 8
TAG_SHIFT = RANK_BITS + OFFSET_BITS + LENGTH_BITS  # 47


def hash_bytes(data: bytes) -> int:
    """Eight bytes at a time, little-endian, the last chunk zero-padded; the length is mixed in."""
    n = len(data)
    h = (SEED ^ (n * M2)) & MASK
    i = 0
    while True:
        chunk = data[i:i + 8]
        w = int.from_bytes(chunk, 'little')
        h = ((h ^ w) * M1) & MASK
        h ^= h >> 29
        i += 8
        if i >= n:
            break
    h ^= h >> 32
    h = (h * M2) & MASK
    h ^= h >> 29
    return h


def main() -> int:
    vocab_path, expected_sha, output = sys.argv[1:4]

    raw = open(vocab_path, 'rb').read()
    sha = hashlib.sha256(raw).hexdigest()
    if sha != expected_sha:
        sys.exit(f'{vocab_path}: SHA-256 {sha}, expected {expected_sha}: '
                 'the vocabulary is not the one Winnow was checked against')

    tokens = []
    for number, line in enumerate(raw.splitlines(), 1):
        b64, rank = line.split(b' ')
        if int(rank) != len(tokens):
            sys.exit(f'{vocab_path}:{number}: rank {int(rank)}, expected {len(tokens)}')
        tokens.append(base64.b64decode(b64, validate=True))

    n = len(tokens)
    if n + 1 >= 1 << RANK_BITS:
        sys.exit(f'{n} tokens do not fit the table slots')
    if len(set(tokens)) != n:
        sys.exit('a token appears twice')
    if len({t for t in tokens if len(t) == 1}) != 256:
        sys.exit('not every single byte is a token: byte-level BPE needs them all')
    max_len = max(len(t) for t in tokens)
    if max_len >= 1 << LENGTH_BITS:
        sys.exit(f'a token of {max_len} bytes does not fit the table slots')

    pool = b''.join(tokens)
    if len(pool) >= 1 << OFFSET_BITS:
        sys.exit(f'a pool of {len(pool)} bytes does not fit the table slots')
    offsets = [0]
    for t in tokens:
        offsets.append(offsets[-1] + len(t))

    table_bits = 1
    while (1 << table_bits) < n * 2.5:  # load ≤ 0.4: a miss mostly ends in its home cache line
        table_bits += 1
    size = 1 << table_bits
    mask = size - 1
    table = [0] * size
    for rank, t in enumerate(tokens):
        h = hash_bytes(t)
        i = h & mask
        while table[i]:
            i = (i + 1) & mask
        table[i] = ((rank + 1)
                    | (offsets[rank] << RANK_BITS)
                    | (len(t) << (RANK_BITS + OFFSET_BITS))
                    | ((h >> TAG_SHIFT) << TAG_SHIFT))

    def align8(x: int) -> int:
        return (x + 7) & ~7

    pairs = [0xFFFFFFFF] * 65536
    for rank, t in enumerate(tokens):
        if len(t) == 2:
            pairs[t[0] | (t[1] << 8)] = rank

    header_size = 80
    offsets_at = align8(header_size)
    table_at = align8(offsets_at + 4 * (n + 1))
    pairs_at = align8(table_at + 8 * size)
    bytes_at = align8(pairs_at + 4 * 65536)
    pool_at = align8(bytes_at + 4 * 256)

    header = struct.pack('<8s10I32s', b'WNTOKv2\0', n, max_len, table_bits, len(pool),
                         offsets_at, table_at, pool_at, hash_bytes(b'winnow') & 0xFFFFFFFF,
                         pairs_at, bytes_at, bytes.fromhex(sha))
    assert len(header) == header_size

    blob = bytearray(pool_at + len(pool) + 8)
    blob[0:header_size] = header
    blob[offsets_at:offsets_at + 4 * (n + 1)] = struct.pack(f'<{n + 1}I', *offsets)
    blob[table_at:table_at + 8 * size] = struct.pack(f'<{size}Q', *table)
    blob[pairs_at:pairs_at + 4 * 65536] = struct.pack('<65536I', *pairs)
    byte_ranks = [0] * 256
    for rank, t in enumerate(tokens):
        if len(t) == 1:
            byte_ranks[t[0]] = rank
    blob[bytes_at:bytes_at + 4 * 256] = struct.pack('<256I', *byte_ranks)
    blob[pool_at:pool_at + len(pool)] = pool

    with open(output, 'wb') as f:
        f.write(blob)
    return 0


if __name__ == '__main__':
    sys.exit(main())
