"""CUB's radix sort through PyTorch on the same GPU, the peer of GpuRadixSort.

torch.sort on a CUDA int32 tensor runs CUB's device radix sort; with stable=True it returns the
sorted keys and the permutation (the values). torch.sort does not modify its input, so every
timed sort gets the same fresh keys. Prints pairs per second for N pairs: CUDA events around 20
sorts after warm-up, median of 5 such samples.

    python3 cub_sort.py 16777216 [random|sorted|reversed|few]
    python3 cub_sort.py --serve      (then "16777216 random" lines on stdin, one result line each)

It sorts pairs only: torch.sort always returns the permutation, as int64, so CUB moves 12 bytes a
pair here against our 8. cub_sort.cu calls CUB on u32 pairs and on keys alone, the like-for-like
peer.
"""
import statistics
import sys

import torch


def pairs_per_second(n, kind):
    # Full 32-bit patterns, as the WebGPU side sorts.
    keys = torch.randint(-(2**31), 2**31 - 1, (n,), dtype=torch.int32, device="cuda")
    if kind == "sorted":
        keys = torch.sort(keys).values
    elif kind == "reversed":
        keys = torch.flip(torch.sort(keys).values, [0])
    elif kind == "few":
        keys = torch.randint(0, 16, (n,), dtype=torch.int32, device="cuda")
    elif kind != "random":
        raise ValueError(f"unknown key kind {kind!r}: use random, sorted, reversed or few")
    for _ in range(5):
        torch.sort(keys, stable=True)
    torch.cuda.synchronize()
    samples = []
    for _ in range(5):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(20):
            torch.sort(keys, stable=True)
        end.record()
        torch.cuda.synchronize()
        samples.append(start.elapsed_time(end) / 20)
    return n / (statistics.median(samples) / 1000)


if sys.argv[1] == "--serve":
    # One process for a whole benchmark run (torch starts in seconds): a line "N kind" in, a line
    # with pairs per second (or "error <why>") out.
    for line in sys.stdin:
        try:
            count, kind, *what = line.split()
            if what not in ([], ["pairs"]):
                raise ValueError(f"torch.sort sorts pairs only, not {' '.join(what)!r}")
            print(pairs_per_second(int(count), kind), flush=True)
            torch.cuda.empty_cache()  # give the memory back while the WebGPU side runs
        except Exception as error:  # reported to the benchmark, which fails the row
            print(f"error {error}", flush=True)
else:
    try:
        print(pairs_per_second(int(sys.argv[1]), sys.argv[2] if len(sys.argv) > 2 else "random"))
    except ValueError as error:
        sys.exit(str(error))
