/*
 * deep_py.h - the Python program that `doctor --deep` runs inside each
 * environment's own interpreter (probe/deep.c), hand-written:
 *
 *     INTERPRETER -B -c DEEP_PY NAME
 *
 * It imports the one framework NAME (tensorflow, torch, jax, cupy), asks it
 * what it was built with and which GPUs it sees, lists the CUDA library
 * files the process mapped (/proc/self/maps: the main library of each
 * family, libcudart.so*, libcudnn.so*, ..., libcuda.so*, libnvidia-ml.so*),
 * and writes ONE JSON object to the stdout it was given:
 *
 *     {"gpudoctor_deep": 1, "name": "torch", "error": null,
 *      "version": "2.11.0+cu130", "module": ".../torch/__init__.py",
 *      "cuda_build": true, "cuda_available": true, "gpu_count": 1,
 *      "devices": ["NVIDIA H200"], "cuda": "13.0", "cudnn": "9.19.0",
 *      "arch_list": ["sm_80", "sm_90"], "capability": "9.0",
 *      "mapped": ["/.../libcudart.so.13", ...]}
 *
 * While importing, fd 1 points at stderr (which the parent sends to
 * /dev/null), so whatever a framework prints cannot spoil the answer; the
 * answer goes to a saved copy of the real stdout, then os._exit skips the
 * framework's teardown. "error" is the first failure (an import error, a
 * call that raised); every other key is null when unknown. The sys.path
 * entry of the current directory is dropped so a local directory named
 * like a framework is not imported instead. Python 2.7 and 3 syntax.
 */
#ifndef GPUDOCTOR_DEEP_PY_H
#define GPUDOCTOR_DEEP_PY_H

static const char DEEP_PY[] =
	"import json, os, re, sys\n"
	"sys.path[:] = [p for p in sys.path if p not in ('', '.')]\n"
	"out = os.dup(1)\n"
	"os.dup2(2, 1)\n"
	"name = sys.argv[1] if len(sys.argv) > 1 else ''\n"
	"r = {'gpudoctor_deep': 1, 'name': name, 'error': None}\n"
	"\n"
	"def fail(what, e):\n"
	"    if not r['error']:\n"
	"        r['error'] = ('%s: %s: %s' % (what, type(e).__name__, e))[:300]\n"
	"\n"
	"def cudnn_text(v):\n"
	"    if not v:\n"
	"        return None\n"
	"    if v >= 90000:\n"
	"        return '%d.%d.%d' % (v // 10000, v % 10000 // 100, v % 100)\n"
	"    return '%d.%d.%d' % (v // 1000, v % 1000 // 100, v % 100)\n"
	"\n"
	"def ask_tensorflow(tf):\n"
	"    r['cuda_build'] = bool(tf.test.is_built_with_cuda())\n"
	"    b = tf.sysconfig.get_build_info()\n"
	"    r['cuda'] = b.get('cuda_version')\n"
	"    r['cudnn'] = b.get('cudnn_version')\n"
	"    r['arch_list'] = list(b.get('cuda_compute_capabilities') or [])\n"
	"    gpus = tf.config.list_physical_devices('GPU')\n"
	"    r['gpu_count'] = len(gpus)\n"
	"    r['cuda_available'] = len(gpus) > 0\n"
	"    r['devices'] = []\n"
	"    for g in gpus:\n"
	"        d = tf.config.experimental.get_device_details(g)\n"
	"        r['devices'].append(d.get('device_name', g.name))\n"
	"        if d.get('compute_capability') and not r.get('capability'):\n"
	"            r['capability'] = '%d.%d' % tuple(d['compute_capability'])\n"
	"\n"
	"def ask_torch(torch):\n"
	"    r['cuda'] = torch.version.cuda\n"
	"    r['cuda_build'] = torch.version.cuda is not None\n"
	"    r['cuda_available'] = bool(torch.cuda.is_available())\n"
	"    r['cudnn'] = cudnn_text(torch.backends.cudnn.version())\n"
	"    r['arch_list'] = list(torch.cuda.get_arch_list())\n"
	"    r['gpu_count'] = torch.cuda.device_count()\n"
	"    if r['cuda_available']:\n"
	"        r['devices'] = [torch.cuda.get_device_name(i) for i in range(r['gpu_count'])]\n"
	"        r['capability'] = '%d.%d' % torch.cuda.get_device_capability(0)\n"
	"\n"
	"def ask_jax(jax):\n"
	"    import jaxlib\n"
	"    r['version'] = getattr(jaxlib, '__version__', None) or r['version']\n"
	"    gpus = [d for d in jax.devices() if d.platform in ('gpu', 'cuda')]\n"
	"    r['gpu_count'] = len(gpus)\n"
	"    r['cuda_available'] = len(gpus) > 0\n"
	"    r['devices'] = [d.device_kind for d in gpus]\n"
	"    if gpus and getattr(gpus[0], 'compute_capability', None):\n"
	"        r['capability'] = str(gpus[0].compute_capability)\n"
	"\n"
	"def ask_cupy(cupy):\n"
	"    rt = cupy.cuda.runtime\n"
	"    v = rt.runtimeGetVersion()\n"
	"    r['cuda'] = '%d.%d' % (v // 1000, v % 1000 // 10)\n"
	"    r['cuda_build'] = True\n"
	"    n = rt.getDeviceCount()\n"
	"    r['gpu_count'] = n\n"
	"    r['cuda_available'] = n > 0\n"
	"    r['devices'] = []\n"
	"    for i in range(n):\n"
	"        p = rt.getDeviceProperties(i)\n"
	"        r['devices'].append(p['name'].decode() if isinstance(p['name'], bytes) else p['name'])\n"
	"        if i == 0:\n"
	"            r['capability'] = '%d.%d' % (p['major'], p['minor'])\n"
	"\n"
	"try:\n"
	"    m = __import__(name)\n"
	"    r['version'] = getattr(m, '__version__', None)\n"
	"    r['module'] = getattr(m, '__file__', None)\n"
	"    globals()['ask_' + name](m)\n"
	"except BaseException as e:\n"
	"    fail('import ' + name if 'module' not in r else name, e)\n"
	"\n"
	"lib = re.compile(r'lib(cudart|cublas|cublasLt|cudnn|nccl|cufft|curand|cusolver|cusparse|nvrtc"
	"|nvJitLink|cuda|nvidia-ml)\\.so')\n"
	"r['mapped'] = []\n"
	"try:\n"
	"    for line in open('/proc/self/maps'):\n"
	"        f = line.split(None, 5)\n"
	"        if len(f) == 6 and lib.match(os.path.basename(f[5].strip())):\n"
	"            if f[5].strip() not in r['mapped']:\n"
	"                r['mapped'].append(f[5].strip())\n"
	"except Exception as e:\n"
	"    fail('/proc/self/maps', e)\n"
	"os.write(out, json.dumps(r).encode())\n"
	"os._exit(0)\n";

#endif
