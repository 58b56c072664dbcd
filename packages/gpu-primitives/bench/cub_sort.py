"""CUB's radix sort through PyTorch on the same GPU, the peer of GpuRadixSort.

torch.sort on a CUDA int32 tensor runs CUB's device radix sort; with stable=True it returns the
sorted keys and the permutation (the values). Prints pairs per second for N pairs: CUDA events
around 20 sorts after warm-up, median of 5 such samples.

    python3 cub_sort.py 16777216
"""
import statistics
import sys

import torch

n = int(sys.argv[1])
keys = torch.randint(0, 2**31 - 1, (n,), dtype=torch.int32, device="cuda")
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
