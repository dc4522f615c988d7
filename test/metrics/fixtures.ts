// Exposition text as dcgm-exporter (3.3/4.x, GPU Operator defaults: pod
// mapping on, NODE_NAME set) writes it: empty pod labels on free GPUs, MIG
// instances labelled GPU_I_PROFILE / GPU_I_ID, XID errors with err_code.
const base = (gpu: number, uuid: string, pod: { ns: string; name: string; c: string } | null, host = 'gpu-node-01') =>
  `gpu="${gpu}",UUID="${uuid}",pci_bus_id="00000000:${String(0x18 + gpu * 16).padStart(2, '0')}:00.0",device="nvidia${gpu}",modelName="NVIDIA H100 80GB HBM3",Hostname="${host}",DCGM_FI_DRIVER_VERSION="550.90.07",container="${pod?.c ?? ''}",namespace="${pod?.ns ?? ''}",pod="${pod?.name ?? ''}"`;

export const UUID0 = 'GPU-6b0d8a2e-3f1c-4a55-9d0e-1c2b3a4d5e60';
export const UUID1 = 'GPU-9f8e7d6c-5b4a-4321-8fed-cba987654321';
export const UUID2 = 'GPU-0a1b2c3d-4e5f-4678-9abc-def012345678';
const P0 = { ns: 'training', name: 'llama-pretrain-worker-0-0-x7k2p', c: 'trainer' };

export const DCGM_TEXT = `# HELP DCGM_FI_DEV_SM_CLOCK SM clock frequency (in MHz).
# TYPE DCGM_FI_DEV_SM_CLOCK gauge
DCGM_FI_DEV_SM_CLOCK{${base(0, UUID0, P0)}} 1980
DCGM_FI_DEV_SM_CLOCK{${base(1, UUID1, null)}} 345
# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %).
# TYPE DCGM_FI_DEV_GPU_UTIL gauge
DCGM_FI_DEV_GPU_UTIL{${base(0, UUID0, P0)}} 87
DCGM_FI_DEV_GPU_UTIL{${base(1, UUID1, null)}} 0
# HELP DCGM_FI_DEV_FB_FREE Framebuffer memory free (in MiB).
# TYPE DCGM_FI_DEV_FB_FREE gauge
DCGM_FI_DEV_FB_FREE{${base(0, UUID0, P0)}} 12000
DCGM_FI_DEV_FB_FREE{${base(1, UUID1, null)}} 81003
# HELP DCGM_FI_DEV_FB_USED Framebuffer memory used (in MiB).
# TYPE DCGM_FI_DEV_FB_USED gauge
DCGM_FI_DEV_FB_USED{${base(0, UUID0, P0)}} 69000
DCGM_FI_DEV_FB_USED{${base(1, UUID1, null)}} 0
# HELP DCGM_FI_DEV_FB_RESERVED Framebuffer memory reserved (in MiB).
# TYPE DCGM_FI_DEV_FB_RESERVED gauge
DCGM_FI_DEV_FB_RESERVED{${base(0, UUID0, P0)}} 559
DCGM_FI_DEV_FB_RESERVED{${base(1, UUID1, null)}} 556
# HELP DCGM_FI_DEV_POWER_USAGE Power draw (in W).
# TYPE DCGM_FI_DEV_POWER_USAGE gauge
DCGM_FI_DEV_POWER_USAGE{${base(0, UUID0, P0)}} 612.337000
DCGM_FI_DEV_POWER_USAGE{${base(1, UUID1, null)}} 71.5
# HELP DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION Total energy consumption since boot (in mJ).
# TYPE DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION counter
DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION{${base(0, UUID0, P0)}} 48211734512
# HELP DCGM_FI_DEV_XID_ERRORS Value of the last XID error encountered.
# TYPE DCGM_FI_DEV_XID_ERRORS gauge
DCGM_FI_DEV_XID_ERRORS{${base(0, UUID0, P0)},err_code="0",err_msg="No Error"} 0
DCGM_FI_DEV_XID_ERRORS{${base(1, UUID1, null)},err_code="79",err_msg="GPU has fallen off the bus"} 79
# HELP DCGM_FI_PROF_GR_ENGINE_ACTIVE Ratio of time the graphics engine is active.
# TYPE DCGM_FI_PROF_GR_ENGINE_ACTIVE gauge
DCGM_FI_PROF_GR_ENGINE_ACTIVE{${base(2, UUID2, { ns: 'inference', name: 'mig-embedder', c: 'embed' })},GPU_I_PROFILE="1g.10gb",GPU_I_ID="9"} 0.412
DCGM_FI_PROF_GR_ENGINE_ACTIVE{${base(2, UUID2, null)},GPU_I_PROFILE="1g.10gb",GPU_I_ID="10"} 0.000000
DCGM_FI_DEV_FB_USED{${base(2, UUID2, { ns: 'inference', name: 'mig-embedder', c: 'embed' })},GPU_I_PROFILE="1g.10gb",GPU_I_ID="9"} 4100
DCGM_FI_DEV_FB_FREE{${base(2, UUID2, { ns: 'inference', name: 'mig-embedder', c: 'embed' })},GPU_I_PROFILE="1g.10gb",GPU_I_ID="9"} 5652
`;
