"""CUB's radix sort through PyTorch on the same GPU, the peer of GpuRadixSort.

torch.sort on a CUDA int32 tensor runs CUB's device radix sort; with stable=True it returns the
sorted keys and the permutation (the values). torch.sort does not modify its input, so every
timed sort gets the same fresh keys. Prints pairs per second for N pairs: CUDA events around 20
sorts after warm-up, median of 5 such samples.

    python3 cub_sort.py 16777216 [random|sorted|reversed|few]
"""
import statistics
import sys

import torch

n = int(sys.argv[1])
kind = sys.argv[2] if len(sys.argv) > 2 else "random"
# Full 32-bit patterns, as the WebGPU side sorts.
keys = torch.randint(-(2**31), 2**31 - 1, (n,), dtype=torch.int32, device="cuda")
if kind == "sorted":
    keys = torch.sort(keys).values
elif kind == "reversed":
    keys = torch.flip(torch.sort(keys).values, [0])
elif kind == "few":
    keys = torch.randint(0, 16, (n,), dtype=torch.int32, device="cuda")
elif kind != "random":
    sys.exit(f"unknown key kind {kind!r}: use random, sorted, reversed or few")
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
print(n / (statistics.median(samples) / 1000))
