#!/usr/bin/env python3
"""pipeline_stats.py [--robust] file.spv[:label] ...

Compiles each SPIR-V compute shader (made by `pnpm spirv`) on the first Vulkan device and prints
what the driver reports for it through VK_KHR_pipeline_executable_properties: on NVIDIA the
registers an invocation, the workgroup (shared) memory and the local memory (spills and
dynamically indexed arrays). Those decide how many workgroups an SM runs at once, which no
WebGPU API tells. Standard library only (ctypes), so it runs on the GPU machine as it is.

The descriptor set layout comes from the .spvasm beside each .spv (Uniform variables become
uniform buffers, the rest storage buffers). Every feature the device offers is enabled except
robustBufferAccess (--robust turns it on). Drivers without the extension (lavapipe) still
compile each pipeline, which checks the SPIR-V, and say they have no statistics."""
import ctypes as C
import re
import sys

vk = C.CDLL('libvulkan.so.1')
P = C.c_void_p
U32 = C.c_uint32
U64 = C.c_uint64

def check(r, what):
    if r != 0:
        raise SystemExit(f'{what} failed: {r}')

class AppInfo(C.Structure):
    _fields_ = [('sType', U32), ('pNext', P), ('pApplicationName', C.c_char_p), ('applicationVersion', U32), ('pEngineName', C.c_char_p), ('engineVersion', U32), ('apiVersion', U32)]

class InstanceCI(C.Structure):
    _fields_ = [('sType', U32), ('pNext', P), ('flags', U32), ('pApplicationInfo', P), ('enabledLayerCount', U32), ('ppEnabledLayerNames', P), ('enabledExtensionCount', U32), ('ppEnabledExtensionNames', P)]

class QueueCI(C.Structure):
    _fields_ = [('sType', U32), ('pNext', P), ('flags', U32), ('queueFamilyIndex', U32), ('queueCount', U32), ('pQueuePriorities', P)]

class DeviceCI(C.Structure):
    _fields_ = [('sType', U32), ('pNext', P), ('flags', U32), ('queueCreateInfoCount', U32), ('pQueueCreateInfos', P), ('enabledLayerCount', U32), ('ppEnabledLayerNames', P), ('enabledExtensionCount', U32), ('ppEnabledExtensionNames', P), ('pEnabledFeatures', P)]

class ExtProps(C.Structure):
    _fields_ = [('extensionName', C.c_char * 256), ('specVersion', U32)]

class ShaderModuleCI(C.Structure):
    _fields_ = [('sType', U32), ('pNext', P), ('flags', U32), ('codeSize', C.c_size_t), ('pCode', P)]

class DSLBinding(C.Structure):
    _fields_ = [('binding', U32), ('descriptorType', U32), ('descriptorCount', U32), ('stageFlags', U32), ('pImmutableSamplers', P)]

class DSLCI(C.Structure):
    _fields_ = [('sType', U32), ('pNext', P), ('flags', U32), ('bindingCount', U32), ('pBindings', P)]

class PushRange(C.Structure):
    _fields_ = [('stageFlags', U32), ('offset', U32), ('size', U32)]

class PipelineLayoutCI(C.Structure):
    _fields_ = [('sType', U32), ('pNext', P), ('flags', U32), ('setLayoutCount', U32), ('pSetLayouts', P), ('pushConstantRangeCount', U32), ('pPushConstantRanges', P)]

class StageCI(C.Structure):
    _fields_ = [('sType', U32), ('pNext', P), ('flags', U32), ('stage', U32), ('module', U64), ('pName', C.c_char_p), ('pSpecializationInfo', P)]

class ComputePipelineCI(C.Structure):
    _fields_ = [('sType', U32), ('pNext', P), ('flags', U32), ('stage', StageCI), ('layout', U64), ('basePipelineHandle', U64), ('basePipelineIndex', C.c_int32)]

class PipelineInfo(C.Structure):
    _fields_ = [('sType', U32), ('pNext', P), ('pipeline', U64)]

class ExecProps(C.Structure):
    _fields_ = [('sType', U32), ('pNext', P), ('stages', U32), ('name', C.c_char * 256), ('description', C.c_char * 256), ('subgroupSize', U32)]

class ExecInfo(C.Structure):
    _fields_ = [('sType', U32), ('pNext', P), ('pipeline', U64), ('executableIndex', U32)]

class StatValue(C.Union):
    _fields_ = [('b32', U32), ('i64', C.c_int64), ('u64', U64), ('f64', C.c_double)]

class ExecStat(C.Structure):
    _fields_ = [('sType', U32), ('pNext', P), ('name', C.c_char * 256), ('description', C.c_char * 256), ('format', U32), ('value', StatValue)]

def raw_struct(stype, size=2048):
    buf = C.create_string_buffer(size)
    C.memmove(buf, C.byref(U32(stype)), 4)
    return buf

def chain(bufs):
    for a, b in zip(bufs, bufs[1:]):
        C.memmove(C.addressof(a) + 8, C.byref(P(C.addressof(b))), 8)
    return bufs

def enumerate_structs(fn, dev, info, struct, stype):
    """Vulkan's two-call enumeration: the count, then that many structs (sType set) filled in."""
    count = U32()
    fn(dev, C.byref(info), C.byref(count), None)
    items = (struct * count.value)()
    for item in items:
        item.sType = stype
    fn(dev, C.byref(info), C.byref(count), items)
    return items


def main():
    app = AppInfo(0, None, b'vkstats', 1, b'vkstats', 1, (1 << 22) | (3 << 12))
    ici = InstanceCI(1, None, 0, C.addressof(app), 0, None, 0, None)
    inst = P()
    check(vk.vkCreateInstance(C.byref(ici), None, C.byref(inst)), 'vkCreateInstance')
    n = U32()
    vk.vkEnumeratePhysicalDevices(inst, C.byref(n), None)
    phys = (P * n.value)()
    vk.vkEnumeratePhysicalDevices(inst, C.byref(n), phys)
    pd = P(phys[0])
    # device extensions we need, if present
    en = U32()
    vk.vkEnumerateDeviceExtensionProperties(pd, None, C.byref(en), None)
    exts = (ExtProps * en.value)()
    vk.vkEnumerateDeviceExtensionProperties(pd, None, C.byref(en), exts)
    have = {e.extensionName.decode() for e in exts}
    want = [x for x in ['VK_KHR_pipeline_executable_properties', 'VK_KHR_shader_maximal_reconvergence', 'VK_KHR_shader_subgroup_uniform_control_flow'] if x in have]
    # Every feature the device has, robustBufferAccess aside (the option below).
    f2 = raw_struct(1000059000)
    v11, v12, v13 = raw_struct(49), raw_struct(51), raw_struct(53)
    extra = []
    if 'VK_KHR_pipeline_executable_properties' in want:
        extra.append(raw_struct(1000269000))
    if 'VK_KHR_shader_maximal_reconvergence' in want:
        extra.append(raw_struct(1000434000))
    chain([f2, v11, v12, v13, *extra])
    vk.vkGetPhysicalDeviceFeatures2(pd, f2)
    robust = '--robust' in sys.argv
    files = [a for a in sys.argv[1:] if not a.startswith('--')]
    if not files:
        raise SystemExit(__doc__)
    # VkPhysicalDeviceFeatures starts at offset 16 of VkPhysicalDeviceFeatures2; robustBufferAccess is its first VkBool32
    C.memmove(C.addressof(f2) + 16, C.byref(U32(1 if robust else 0)), 4)
    prio = C.c_float(1.0)
    qci = QueueCI(2, None, 0, 0, 1, C.addressof(prio))
    names = (C.c_char_p * len(want))(*[w.encode() for w in want])
    dci = DeviceCI(3, C.addressof(f2), 0, 1, C.addressof(qci), 0, None, len(want), C.cast(names, P), None)
    dev = P()
    check(vk.vkCreateDevice(pd, C.byref(dci), None, C.byref(dev)), 'vkCreateDevice')
    gdpa = vk.vkGetDeviceProcAddr
    gdpa.restype = P
    gdpa.argtypes = [P, C.c_char_p]
    FN = C.CFUNCTYPE(C.c_int32, P, P, P, P)
    stats_ok = 'VK_KHR_pipeline_executable_properties' in want
    if stats_ok:
        get_props = FN(gdpa(dev, b'vkGetPipelineExecutablePropertiesKHR'))
        get_stats = FN(gdpa(dev, b'vkGetPipelineExecutableStatisticsKHR'))
    vk.vkCreateShaderModule.argtypes = [P, P, P, P]
    vk.vkCreateDescriptorSetLayout.argtypes = [P, P, P, P]
    vk.vkCreatePipelineLayout.argtypes = [P, P, P, P]
    vk.vkCreateComputePipelines.argtypes = [P, U64, U32, P, P, P]
    for arg in files:
        path, _, label = arg.partition(':')
        code = open(path, 'rb').read()
        asm = open(path[:-4] + '.spvasm').read()
        var_class = dict(re.findall(r'(%\S+) = OpVariable %_ptr_(\w+?)_', asm))
        bindings = []
        for var, b in re.findall(r'OpDecorate (%\S+) Binding (\d+)', asm):
            cls = var_class.get(var, 'StorageBuffer')
            bindings.append(DSLBinding(int(b), 6 if cls == 'Uniform' else 7, 1, 0x20, None))
        push = 'PushConstant' in asm
        arr = (DSLBinding * len(bindings))(*bindings)
        dsl = U64()
        check(vk.vkCreateDescriptorSetLayout(dev, C.byref(DSLCI(32, None, 0, len(bindings), C.addressof(arr))), None, C.byref(dsl)), 'dsl')
        pr = PushRange(0x20, 0, 128)
        plci = PipelineLayoutCI(30, None, 0, 1, C.addressof(dsl), 1 if push else 0, C.addressof(pr) if push else None)
        pl = U64()
        check(vk.vkCreatePipelineLayout(dev, C.byref(plci), None, C.byref(pl)), 'pipeline layout')
        cbuf = C.create_string_buffer(code, len(code))
        sm = U64()
        check(vk.vkCreateShaderModule(dev, C.byref(ShaderModuleCI(16, None, 0, len(code), C.addressof(cbuf))), None, C.byref(sm)), 'shader module')
        entry = re.search(r'OpEntryPoint GLCompute %\S+ "([^"]+)"', asm).group(1)
        stage = StageCI(18, None, 0, 0x20, sm.value, entry.encode(), None)
        # VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR where the driver has the extension.
        cpci = ComputePipelineCI(29, None, 0x40 if stats_ok else 0, stage, pl.value, 0, -1)
        pipe = U64()
        check(vk.vkCreateComputePipelines(dev, 0, 1, C.byref(cpci), None, C.byref(pipe)), 'compute pipeline ' + path)
        if not stats_ok:
            print(f'{label or path}: compiled (no statistics on this driver)')
            continue
        props = enumerate_structs(get_props, dev, PipelineInfo(1000269001, None, pipe.value), ExecProps, 1000269002)
        for i, prop in enumerate(props):
            stats = enumerate_structs(get_stats, dev, ExecInfo(1000269003, None, pipe.value, i), ExecStat, 1000269004)
            vals = []
            for stat in stats:
                value = [stat.value.b32, stat.value.i64, stat.value.u64, stat.value.f64][stat.format]
                # NVIDIA reports local memory with bit 36 set; the bytes are the low bits.
                if stat.name.decode() == 'Local Memory Size' and value >= 1 << 36:
                    value -= 1 << 36
                vals.append(f'{stat.name.decode()}={value}')
            print(f'{label or path} [{prop.name.decode()} sg{prop.subgroupSize}]: ' + ', '.join(vals))

main()
