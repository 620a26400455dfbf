/*
 * gen-error-codes.c - writes data/kb/error_codes.tsv: every status code of
 * the CUDA runtime (cudaError_t), the CUDA driver (CUresult), cuBLAS
 * (cublasStatus_t), cuDNN (cudnnStatus_t) and NCCL (ncclResult_t), read
 * from the headers of the CUDA toolkit on this machine, with the meaning
 * their documentation comment gives, the message the library itself prints
 * for it (its *GetErrorString call, where the library is here), and the
 * finding it points to. NVML's codes (nvmlReturn_t) come from the NVML API
 * reference, as src/probe/driver.c lists them. The driver's and NVML's own
 * messages need the driver, which a build machine may lack: --dump, run on
 * a machine with the driver, prints them (library, code, message), and
 * --messages FILE takes them in.
 *
 *   gen-error-codes --dump > driver-messages.tsv           (where the driver is)
 *   gen-error-codes [--messages driver-messages.tsv] [/usr/local/cuda] > data/kb/error_codes.tsv
 *
 * A maintenance tool (make error-codes builds it): run it when a new
 * toolkit or driver is out, review the diff (the finding column above all),
 * commit the table.
 */
#include <ctype.h>
#include <dlfcn.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct library {
	const char *name;          /* the table's library column */
	const char *header;        /* under include/ */
	const char *first, *last;  /* the enum: from the line holding first to the one holding last */
	const char *prefix;        /* its members' names */
	const char *so;            /* under lib64/, for the message call; NULL none */
	const char *call;          /* const char *call(int) */
	const char *source;
	int categories;            /* its comments name a group of codes, not one: not used */
};

static const struct library libraries[] = {
	{"cuda_runtime", "driver_types.h", "enum __device_builtin__ cudaError", "};", "cudaError",
	 "libcudart.so", "cudaGetErrorString",
	 "CUDA %s toolkit include/driver_types.h (enum cudaError) and libcudart cudaGetErrorString; "
	 "https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html", 0},
	{"cuda_driver", "cuda.h", "typedef enum cudaError_enum", "} CUresult;", "CUDA_ERROR_", NULL, NULL,
	 "CUDA %s toolkit include/cuda.h (enum CUresult), messages: libcuda cuGetErrorString; "
	 "https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__TYPES.html", 0},
	{"cublas", "cublas_api.h", "CUBLAS_STATUS_SUCCESS", "} cublasStatus_t;", "CUBLAS_STATUS_",
	 "libcublas.so", "cublasGetStatusString",
	 "CUDA %s toolkit include/cublas_api.h (cublasStatus_t) and libcublas cublasGetStatusString; "
	 "https://docs.nvidia.com/cuda/cublas/#cublasstatus-t", 0},
	{"cudnn", "cudnn_graph.h", "CUDNN_STATUS_SUCCESS", "} cudnnStatus_t;", "CUDNN_STATUS_",
	 "libcudnn.so", "cudnnGetErrorString",
	 "cuDNN 9 include/cudnn_graph.h (cudnnStatus_t) and libcudnn cudnnGetErrorString; "
	 "https://docs.nvidia.com/deeplearning/cudnn/backend/latest/api/cudnn-graph-library.html", 1},
	{"nccl", "nccl.h", "ncclSuccess", "} ncclResult_t;", "nccl", "libnccl.so", "ncclGetErrorString",
	 "NCCL include/nccl.h (ncclResult_t) and libnccl ncclGetErrorString; "
	 "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/api/types.html", 0},
};

/* nvmlReturn_t, 0..29 and 999: the NVML API reference's order. */
static const char *const nvml_names[] = {
	"NVML_SUCCESS", "NVML_ERROR_UNINITIALIZED", "NVML_ERROR_INVALID_ARGUMENT",
	"NVML_ERROR_NOT_SUPPORTED", "NVML_ERROR_NO_PERMISSION", "NVML_ERROR_ALREADY_INITIALIZED",
	"NVML_ERROR_NOT_FOUND", "NVML_ERROR_INSUFFICIENT_SIZE", "NVML_ERROR_INSUFFICIENT_POWER",
	"NVML_ERROR_DRIVER_NOT_LOADED", "NVML_ERROR_TIMEOUT", "NVML_ERROR_IRQ_ISSUE",
	"NVML_ERROR_LIBRARY_NOT_FOUND", "NVML_ERROR_FUNCTION_NOT_FOUND",
	"NVML_ERROR_CORRUPTED_INFOROM", "NVML_ERROR_GPU_IS_LOST", "NVML_ERROR_RESET_REQUIRED",
	"NVML_ERROR_OPERATING_SYSTEM", "NVML_ERROR_LIB_RM_VERSION_MISMATCH", "NVML_ERROR_IN_USE",
	"NVML_ERROR_MEMORY", "NVML_ERROR_NO_DATA", "NVML_ERROR_VGPU_ECC_NOT_SUPPORTED",
	"NVML_ERROR_INSUFFICIENT_RESOURCES", "NVML_ERROR_FREQ_NOT_SUPPORTED",
	"NVML_ERROR_ARGUMENT_VERSION_MISMATCH", "NVML_ERROR_DEPRECATED", "NVML_ERROR_NOT_READY",
	"NVML_ERROR_GPU_NOT_FOUND", "NVML_ERROR_INVALID_STATE",
};

/* cudnnStatus_t of cuDNN 8 and older, 0..14, which cuDNN 9 renumbered
 * (1000 and up) and partly renamed: programs built with them still print
 * these. No cuDNN 8 header is on this machine: names and values from the
 * cuDNN 8.9 API reference. */
static const struct {
	const char *name, *meaning;
} cudnn8[] = {
	{"CUDNN_STATUS_SUCCESS", ""},
	{"CUDNN_STATUS_NOT_INITIALIZED", "The cuDNN library was not initialized properly."},
	{"CUDNN_STATUS_ALLOC_FAILED", "Resource allocation failed inside the cuDNN library."},
	{"CUDNN_STATUS_BAD_PARAM", "An incorrect value or parameter was passed to the function."},
	{"CUDNN_STATUS_INTERNAL_ERROR", "An internal cuDNN operation failed."},
	{"CUDNN_STATUS_INVALID_VALUE", ""},
	{"CUDNN_STATUS_ARCH_MISMATCH", "The function requires a feature absent from the current GPU "
				       "device (cuDNN supports only some compute capabilities)."},
	{"CUDNN_STATUS_MAPPING_ERROR", "An access to GPU memory space failed."},
	{"CUDNN_STATUS_EXECUTION_FAILED", "The GPU program failed to execute."},
	{"CUDNN_STATUS_NOT_SUPPORTED", "The functionality requested is not presently supported by cuDNN."},
	{"CUDNN_STATUS_LICENSE_ERROR", "The functionality requested requires some license."},
	{"CUDNN_STATUS_RUNTIME_PREREQUISITE_MISSING", "A runtime library required by cuDNN cannot be "
						      "found in the predefined search paths."},
	{"CUDNN_STATUS_RUNTIME_IN_PROGRESS", "Some tasks in the user stream are not completed."},
	{"CUDNN_STATUS_RUNTIME_FP_OVERFLOW", "Numerical overflow occurred during the GPU kernel "
					     "execution."},
	{"CUDNN_STATUS_VERSION_MISMATCH", "The versions of the cuDNN sub-libraries do not match."},
};

/* The finding a code points to; codes not named here point to rt.unknown
 * (a GPU error with no known cause), with their own meaning. */
static const struct {
	const char *name, *finding;
} findings[] = {
	{"cudaErrorMemoryAllocation", "mem.oom"},
	{"CUDA_ERROR_OUT_OF_MEMORY", "mem.oom"},
	{"cudaErrorInsufficientDriver", "driver.too_old"},
	{"cudaErrorCallRequiresNewerDriver", "driver.too_old"},
	{"cudaErrorUnsupportedPtxVersion", "driver.too_old"},
	{"CUDA_ERROR_UNSUPPORTED_PTX_VERSION", "driver.too_old"},
	{"cudaErrorNoDevice", "driver.no_visible_device"},
	{"CUDA_ERROR_NO_DEVICE", "driver.no_visible_device"},
	{"cudaErrorInvalidDevice", "env.visible_devices_invalid"},
	{"CUDA_ERROR_INVALID_DEVICE", "env.visible_devices_invalid"},
	{"cudaErrorNoKernelImageForDevice", "fw.arch_not_in_build"},
	{"CUDA_ERROR_NO_BINARY_FOR_GPU", "fw.arch_not_in_build"},
	{"cudaErrorInvalidDeviceFunction", "fw.arch_not_in_build"},
	{"cudaErrorInvalidKernelImage", "fw.arch_not_in_build"},
	{"CUDA_ERROR_INVALID_IMAGE", "fw.arch_not_in_build"},
	{"cudaErrorSystemDriverMismatch", "driver.version_mismatch"},
	{"CUDA_ERROR_SYSTEM_DRIVER_MISMATCH", "driver.version_mismatch"},
	{"cudaErrorCompatNotSupportedOnDevice", "driver.forward_compat_unsupported"},
	{"CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE", "driver.forward_compat_unsupported"},
	{"cudaErrorDevicesUnavailable", "rt.device_busy"},
	{"cudaErrorDeviceAlreadyInUse", "rt.device_busy"},
	{"CUDA_ERROR_CONTEXT_ALREADY_IN_USE", "rt.device_busy"},
	{"cudaErrorSystemNotReady", "driver.init_failed"},
	{"CUDA_ERROR_SYSTEM_NOT_READY", "driver.init_failed"},
	{"CUDA_ERROR_DEVICE_UNAVAILABLE", "rt.device_busy"},
	{"cudaErrorStubLibrary", "lib.shadowed"},
	{"CUDA_ERROR_STUB_LIBRARY", "lib.shadowed"},
	{"cudaErrorInitializationError", "driver.init_failed"},
	{"CUDA_ERROR_NOT_INITIALIZED", "driver.init_failed"},
	/* an OS call the driver needs failed: at start-up, a container's
	 * seccomp profile or cgroup, or a platform without that call */
	{"cudaErrorOperatingSystem", "driver.init_failed"},
	{"CUDA_ERROR_OPERATING_SYSTEM", "driver.init_failed"},
	{"cudaErrorIllegalAddress", "rt.kernel_fault"},
	{"CUDA_ERROR_ILLEGAL_ADDRESS", "rt.kernel_fault"},
	{"cudaErrorLaunchFailure", "rt.kernel_fault"},
	/* a launch with more threads or shared memory than the GPU allows */
	{"cudaErrorInvalidConfiguration", "rt.kernel_fault"},
	{"CUDA_ERROR_LAUNCH_FAILED", "rt.kernel_fault"},
	{"cudaErrorAssert", "rt.kernel_fault"},
	{"CUDA_ERROR_ASSERT", "rt.kernel_fault"},
	{"cudaErrorMisalignedAddress", "rt.kernel_fault"},
	{"CUDA_ERROR_MISALIGNED_ADDRESS", "rt.kernel_fault"},
	{"cudaErrorIllegalInstruction", "rt.kernel_fault"},
	{"CUDA_ERROR_ILLEGAL_INSTRUCTION", "rt.kernel_fault"},
	{"cudaErrorHardwareStackError", "rt.kernel_fault"},
	{"CUDA_ERROR_HARDWARE_STACK_ERROR", "rt.kernel_fault"},
	{"cudaErrorInvalidPc", "rt.kernel_fault"},
	{"CUDA_ERROR_INVALID_PC", "rt.kernel_fault"},
	{"cudaErrorLaunchTimeout", "rt.kernel_fault"},
	{"CUDA_ERROR_LAUNCH_TIMEOUT", "rt.kernel_fault"},
	/* peer access between two GPUs that have no P2P path (nvidia-smi
	 * topo -p2p r: CNS, GNS, TNS) */
	{"cudaErrorPeerAccessUnsupported", "hw.p2p_unavailable"},
	{"CUDA_ERROR_PEER_ACCESS_UNSUPPORTED", "hw.p2p_unavailable"},
	{"cudaErrorECCUncorrectable", "rt.xid_error"},
	{"CUDA_ERROR_ECC_UNCORRECTABLE", "rt.xid_error"},
	{"NVML_ERROR_LIB_RM_VERSION_MISMATCH", "driver.version_mismatch"},
	{"NVML_ERROR_DRIVER_NOT_LOADED", "kmod.nvidia_not_loaded"},
	{"NVML_ERROR_LIBRARY_NOT_FOUND", "driver.libcuda_missing"},
	{"NVML_ERROR_GPU_IS_LOST", "rt.xid_error"},
	{"NVML_ERROR_NO_PERMISSION", "kmod.device_nodes_missing"},
	{"CUBLAS_STATUS_NOT_INITIALIZED", "rt.cublas_init_failed"},
	{"CUBLAS_STATUS_ALLOC_FAILED", "rt.cublas_init_failed"},
	{"CUBLAS_STATUS_EXECUTION_FAILED", "rt.cublas_init_failed"},
	{"CUBLAS_STATUS_INTERNAL_ERROR", "rt.cublas_init_failed"},
	/* "the function requires an architectural feature absent from the
	 * device": the GPU lacks it (cuDNN's ARCH_MISMATCH below alike) */
	{"CUBLAS_STATUS_ARCH_MISMATCH", "hw.arch_too_old"},
	/* an operation this cuBLAS cannot do on this GPU: most often a cuBLAS
	 * of a CUDA older than the GPU (CUDA 12.x before 12.8 on Blackwell) */
	{"CUBLAS_STATUS_NOT_SUPPORTED", "fw.arch_not_in_build"},
	/* "Local version of NVML doesn't implement this function": a driver
	 * older than the program that asks */
	{"NVML_ERROR_FUNCTION_NOT_FOUND", "driver.too_old"},
	{"CUDNN_STATUS_NOT_INITIALIZED", "rt.cudnn_init_failed"},
	{"CUDNN_STATUS_ALLOC_FAILED", "rt.cudnn_init_failed"},
	{"CUDNN_STATUS_INTERNAL_ERROR", "rt.cudnn_init_failed"},
	{"CUDNN_STATUS_EXECUTION_FAILED", "rt.cudnn_init_failed"},
	{"CUDNN_STATUS_ARCH_MISMATCH", "hw.arch_too_old"},
	{"CUDNN_STATUS_NOT_SUPPORTED_ARCH_MISMATCH", "hw.arch_too_old"},
	{"CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH", "lib.cudnn_version_mismatch"},
	{"CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED", "lib.cudnn_missing"},
	{"CUDNN_STATUS_VERSION_MISMATCH", "lib.cudnn_version_mismatch"},
	{"CUDNN_STATUS_RUNTIME_PREREQUISITE_MISSING", "lib.cuda_lib_missing"},
};

/* Messages taken in with --messages: library, code, message. */
static struct message {
	char library[16];
	long code;
	char text[256];
} *messages;
static size_t nmessages;

static void
read_messages(const char *path)
{
	char line[512];
	FILE *fp = fopen(path, "r");

	if (!fp) {
		perror(path);
		exit(1);
	}
	while (fgets(line, sizeof(line), fp)) {
		struct message m;
		char *t1 = strchr(line, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;

		if (!t2)
			continue;
		*t1 = *t2 = '\0';
		t2[1 + strcspn(t2 + 1, "\n")] = '\0';
		snprintf(m.library, sizeof(m.library), "%.15s", line);
		m.code = strtol(t1 + 1, NULL, 10);
		snprintf(m.text, sizeof(m.text), "%.255s", t2 + 1);
		messages = realloc(messages, (nmessages + 1) * sizeof(*messages));
		if (!messages)
			exit(1);
		messages[nmessages++] = m;
	}
	fclose(fp);
}

static const char *
message_of(const char *library, long code)
{
	size_t i;

	for (i = 0; i < nmessages; i++)
		if (!strcmp(messages[i].library, library) && messages[i].code == code)
			return messages[i].text;
	return NULL;
}

static const char *
finding_of(const char *name, const char *library)
{
	size_t i;

	for (i = 0; i < sizeof(findings) / sizeof(findings[0]); i++)
		if (!strcmp(findings[i].name, name))
			return findings[i].finding;
	if (!strcmp(library, "nccl"))
		return "rt.nccl_error";
	return "rt.unknown";
}

/* The text of a documentation comment as one line: no comment marks, no
 * Doxygen commands' markup, blanks collapsed, at most its first sentence
 * (and 300 bytes). */
static void
one_line(const char *in, char *out, size_t size)
{
	const char *start = in;
	size_t o = 0;
	int blank = 1;

	for (; *in && o + 1 < size; in++) {
		char c = *in;
		if (c == '/' && (in[1] == '*' || (in > start && in[-1] == '*')))
			continue;        /* the comment's own marks */
		if (c == '*' || c == '\\' || c == '\t' || c == '\n' || c == '\r')
			c = ' ';
		if (c == ' ') {
			if (!blank && o)
				out[o++] = ' ';
			blank = 1;
			continue;
		}
		blank = 0;
		out[o++] = c;
		if (c == '.' && (in[1] == ' ' || in[1] == '\n' || in[1] == '\0') && o > 20)
			break;
	}
	while (o && (out[o - 1] == ' ' || out[o - 1] == '/'))
		o--;
	out[o] = '\0';
	if (o >= 300)
		memcpy(out + 296, "...", 4);
}

static void
emit(const char *library, const char *name, long code, const char *meaning, const char *message,
     const char *source)
{
	const char *p;

	if (strstr(name, "SUCCESS") || !strcmp(name, "cudaSuccess") || !strcmp(name, "ncclSuccess") ||
	    !strcmp(name, "ncclNumResults") || !strcmp(name, "ncclInProgress"))
		return;
	printf("%s\t%s\t%ld\t", library, name, code);
	if (message && !strcmp(message, name))
		message = NULL;              /* cuDNN answers with the name: no message of its own */
	if (!message || !*message)
		message = message_of(library, code);
	for (p = message ? message : ""; *p; p++)
		putchar(*p == '\t' || *p == '\n' ? ' ' : *p);
	putchar('\t');
	for (p = meaning; *p; p++)
		putchar(*p == '\t' || *p == '\n' ? ' ' : *p);
	printf("\t%s\t%s\n", finding_of(name, library), source);
}

static void
read_library(const char *cuda, const char *version, const struct library *l)
{
	char path[4096], line[4096], comment[8192] = "", source[1024], pat[128];
	const char *(*call)(int) = NULL;
	int in_enum = 0, in_comment = 0;
	regex_t re;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/include/%s", cuda, l->header);
	fp = fopen(path, "r");
	if (!fp) {
		fprintf(stderr, "gen-error-codes: %s: not found, %s skipped\n", path, l->name);
		return;
	}
	/* l->source holds one %s, for the toolkit version */
	snprintf(source, sizeof(source), "%s", l->source);
	{
		char *v = strstr(source, "%s");
		if (v) {
			char rest[1024];
			snprintf(rest, sizeof(rest), "%s", v + 2);
			snprintf(v, sizeof(source) - (size_t)(v - source), "%s%s", version, rest);
		}
	}
	if (l->so) {
		void *h;
		snprintf(path, sizeof(path), "%s/lib64/%s", cuda, l->so);
		h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
		if (!h) {
			char alt[4200];
			int major;
			for (major = 20; !h && major > 0; major--) {
				snprintf(alt, sizeof(alt), "%s.%d", path, major);
				h = dlopen(alt, RTLD_NOW | RTLD_LOCAL);
			}
		}
		if (h)
			*(void **)&call = dlsym(h, l->call);
		if (!call)
			fprintf(stderr, "gen-error-codes: %s: no %s, messages left empty\n", l->so, l->call);
	}
	snprintf(pat, sizeof(pat), "(^|[{ \t])(%s[A-Za-z0-9_]*)[ \t]*=[ \t]*(-?[0-9]+)", l->prefix);
	if (regcomp(&re, pat, REG_EXTENDED) != 0) {
		fclose(fp);
		return;
	}
	while (fgets(line, sizeof(line), fp)) {
		regmatch_t m[4];
		char *cs, *ce;

		if (!in_enum) {
			if (strstr(line, l->first))
				in_enum = 1;
			else
				continue;
		}
		cs = strstr(line, "/*");
		if (cs && l->categories && !in_comment && regexec(&re, line, 0, NULL, 0) == 0)
			cs = NULL;   /* a remark after a member, not a group's name */
		if (cs && !in_comment)
			comment[0] = '\0';     /* a new comment: the last one was not this member's */
		if (cs || in_comment) {
			ce = strstr(cs ? cs : line, "*/");
			strncat(comment, cs ? cs : line, sizeof(comment) - strlen(comment) - 1);
			in_comment = !ce;
			if (in_comment)
				continue;
		}
		if (regexec(&re, line, 4, m, 0) == 0) {
			char name[128], meaning[1024];
			long code;
			size_t n = (size_t)(m[2].rm_eo - m[2].rm_so);

			if (n >= sizeof(name))
				n = sizeof(name) - 1;
			memcpy(name, line + m[2].rm_so, n);
			name[n] = '\0';
			code = strtol(line + m[3].rm_so, NULL, 10);
			one_line(l->categories ? "" : comment, meaning, sizeof(meaning));
			emit(l->name, name, code, meaning, call ? call((int)code) : NULL, source);
			if (!l->categories)
				comment[0] = '\0';
		}
		if (strstr(line, l->last))
			break;
	}
	regfree(&re);
	fclose(fp);
}

/* --dump: the driver's and NVML's messages for every code, from the
 * libraries the machine's loader finds. */
static int
dump(void)
{
	void *cu = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	void *nv = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
	int (*cu_str)(int, const char **) = NULL;
	const char *(*nv_str)(int) = NULL;
	int code;

	if (cu)
		*(void **)&cu_str = dlsym(cu, "cuGetErrorString");
	if (nv)
		*(void **)&nv_str = dlsym(nv, "nvmlErrorString");
	if (!cu_str && !nv_str) {
		fprintf(stderr, "gen-error-codes: no libcuda.so.1 or libnvidia-ml.so.1 here\n");
		return 1;
	}
	for (code = 1; code < 1000; code++) {
		const char *m = NULL;
		if (cu_str && cu_str(code, &m) == 0 && m)
			printf("cuda_driver\t%d\t%s\n", code, m);
		if (nv_str && (code < 100 || code == 999) && (m = nv_str(code)) != NULL &&
		    strcmp(m, "Unknown Error") != 0)
			printf("nvml\t%d\t%s\n", code, m);
	}
	return 0;
}

int
main(int argc, char **argv)
{
	const char *cuda = "/usr/local/cuda";
	char path[4096], version[32] = "?", line[256];
	size_t i;
	FILE *fp;
	int a;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--dump"))
			return dump();
		if (!strcmp(argv[a], "--messages") && a + 1 < argc)
			read_messages(argv[++a]);
		else
			cuda = argv[a];
	}
	snprintf(path, sizeof(path), "%s/include/cuda.h", cuda);
	if ((fp = fopen(path, "r")) != NULL) {
		int v;
		while (fgets(line, sizeof(line), fp))
			if (sscanf(line, "#define CUDA_VERSION %d", &v) == 1) {
				snprintf(version, sizeof(version), "%d.%d", v / 1000, v % 1000 / 10);
				break;
			}
		fclose(fp);
	}
	printf("# Status codes of the CUDA runtime, the CUDA driver, NVML, cuBLAS, cuDNN (9, and 8 as cudnn8) and NCCL, and the "
	       "finding each points to. Generated by tools/gen-error-codes.c from the CUDA %s toolkit "
	       "(headers and libraries) and the driver's own messages; review the finding column. See "
	       "README.md.\n", version);
	printf("# message: what the library itself prints for the code (its *GetErrorString; \"\" where it "
	       "was not at hand); meaning: the header's documentation (cuDNN's names only its groups).\n");
	printf("library\tname\tcode\tmessage\tmeaning\tfinding\tsource\n");
	for (i = 0; i < sizeof(libraries) / sizeof(libraries[0]); i++)
		read_library(cuda, version, &libraries[i]);
	for (i = 0; i < sizeof(nvml_names) / sizeof(nvml_names[0]); i++)
		emit("nvml", nvml_names[i], (long)i, "", NULL,
		     "https://docs.nvidia.com/deploy/nvml-api/group__nvmlDeviceEnumvs.html (nvmlReturn_t); "
		     "messages: libnvidia-ml nvmlErrorString");
	emit("nvml", "NVML_ERROR_UNKNOWN", 999, "", NULL,
	     "https://docs.nvidia.com/deploy/nvml-api/group__nvmlDeviceEnumvs.html (nvmlReturn_t); "
	     "messages: libnvidia-ml nvmlErrorString");
	for (i = 0; i < sizeof(cudnn8) / sizeof(cudnn8[0]); i++)
		emit("cudnn8", cudnn8[i].name, (long)i, cudnn8[i].meaning, NULL,
		     "cuDNN 8.9 API reference, cudnnStatus_t (cudnn_ops_infer.h); "
		     "https://docs.nvidia.com/deeplearning/cudnn/archives/cudnn-890/api/index.html");
	return 0;
}
