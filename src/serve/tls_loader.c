/*
 * tls_loader.c - GnuTLS for libmicrohttpd, loaded at run time. Debian's
 * libmicrohttpd.a is built with HTTPS support and calls GnuTLS; linking
 * GnuTLS statically is not possible (Debian ships no libgnutls.a) and
 * linking it dynamically would make every gpudoctor command need it. So
 * the GnuTLS entry points libmicrohttpd uses are defined here: until
 * tls_load() succeeds they do nothing and fail, after it they call the
 * machine's libgnutls.so.30. gnutls_global_init, which libmicrohttpd calls
 * in its library constructor at every start, loads nothing.
 *
 * Only `gpudoctor serve` with a web-config file that asks for TLS calls
 * tls_load().
 */
#include "serve/serve.h"

#include <dlfcn.h>
#include <gnutls/abstract.h>
#include <gnutls/gnutls.h>
#include <stdio.h>
#include <stdlib.h>

gnutls_alloc_function gnutls_malloc = malloc;

static struct {
	bool loaded;
	__typeof__(gnutls_global_init) *global_init;
	__typeof__(gnutls_global_deinit) *global_deinit;
	__typeof__(gnutls_alpn_set_protocols) *alpn_set_protocols;
	__typeof__(gnutls_bye) *bye;
	__typeof__(gnutls_certificate_allocate_credentials) *certificate_allocate_credentials;
	__typeof__(gnutls_certificate_free_credentials) *certificate_free_credentials;
	__typeof__(gnutls_certificate_server_set_request) *certificate_server_set_request;
	__typeof__(gnutls_certificate_set_dh_params) *certificate_set_dh_params;
	__typeof__(gnutls_certificate_set_retrieve_function2) *certificate_set_retrieve_function2;
	__typeof__(gnutls_certificate_set_retrieve_function3) *certificate_set_retrieve_function3;
	__typeof__(gnutls_certificate_set_x509_key_mem) *certificate_set_x509_key_mem;
	__typeof__(gnutls_certificate_set_x509_key_mem2) *certificate_set_x509_key_mem2;
	__typeof__(gnutls_certificate_set_x509_trust_mem) *certificate_set_x509_trust_mem;
	__typeof__(gnutls_cipher_get) *cipher_get;
	__typeof__(gnutls_credentials_set) *credentials_set;
	__typeof__(gnutls_deinit) *deinit;
	__typeof__(gnutls_dh_params_deinit) *dh_params_deinit;
	__typeof__(gnutls_dh_params_import_pkcs3) *dh_params_import_pkcs3;
	__typeof__(gnutls_dh_params_init) *dh_params_init;
	__typeof__(gnutls_handshake) *handshake;
	__typeof__(gnutls_init) *init;
	__typeof__(gnutls_priority_deinit) *priority_deinit;
	__typeof__(gnutls_priority_init) *priority_init;
	__typeof__(gnutls_priority_set) *priority_set;
	__typeof__(gnutls_protocol_get_version) *protocol_get_version;
	__typeof__(gnutls_psk_allocate_server_credentials) *psk_allocate_server_credentials;
	__typeof__(gnutls_psk_free_server_credentials) *psk_free_server_credentials;
	__typeof__(gnutls_psk_set_server_credentials_function) *psk_set_server_credentials_function;
	__typeof__(gnutls_record_check_pending) *record_check_pending;
	__typeof__(gnutls_record_get_direction) *record_get_direction;
	__typeof__(gnutls_record_recv) *record_recv;
	__typeof__(gnutls_record_send) *record_send;
	__typeof__(gnutls_session_get_ptr) *session_get_ptr;
	__typeof__(gnutls_session_set_ptr) *session_set_ptr;
	__typeof__(gnutls_strerror) *strerror_;
	__typeof__(gnutls_transport_set_int2) *transport_set_int2;
} real;

int
tls_load(char *why, size_t size)
{
	void *h;

	if (real.loaded)
		return 0;
	h = dlopen("libgnutls.so.30", RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(why, size, "TLS needs GnuTLS (libgnutls.so.30, Debian's libgnutls30): %s", dlerror());
		return -1;
	}
#define R(field, name)                                                                              \
	do {                                                                                        \
		*(void **)&real.field = dlsym(h, name);                                             \
		if (!real.field) {                                                          \
			snprintf(why, size, "%s lacks %s", "libgnutls.so.30", name);        \
			return -1;                                                          \
		}                                                                           \
	} while (0)
	R(global_init, "gnutls_global_init");
	R(global_deinit, "gnutls_global_deinit");
	R(alpn_set_protocols, "gnutls_alpn_set_protocols");
	R(bye, "gnutls_bye");
	R(certificate_allocate_credentials, "gnutls_certificate_allocate_credentials");
	R(certificate_free_credentials, "gnutls_certificate_free_credentials");
	R(certificate_server_set_request, "gnutls_certificate_server_set_request");
	R(certificate_set_dh_params, "gnutls_certificate_set_dh_params");
	R(certificate_set_retrieve_function2, "gnutls_certificate_set_retrieve_function2");
	R(certificate_set_retrieve_function3, "gnutls_certificate_set_retrieve_function3");
	R(certificate_set_x509_key_mem, "gnutls_certificate_set_x509_key_mem");
	R(certificate_set_x509_key_mem2, "gnutls_certificate_set_x509_key_mem2");
	R(certificate_set_x509_trust_mem, "gnutls_certificate_set_x509_trust_mem");
	R(cipher_get, "gnutls_cipher_get");
	R(credentials_set, "gnutls_credentials_set");
	R(deinit, "gnutls_deinit");
	R(dh_params_deinit, "gnutls_dh_params_deinit");
	R(dh_params_import_pkcs3, "gnutls_dh_params_import_pkcs3");
	R(dh_params_init, "gnutls_dh_params_init");
	R(handshake, "gnutls_handshake");
	R(init, "gnutls_init");
	R(priority_deinit, "gnutls_priority_deinit");
	R(priority_init, "gnutls_priority_init");
	R(priority_set, "gnutls_priority_set");
	R(protocol_get_version, "gnutls_protocol_get_version");
	R(psk_allocate_server_credentials, "gnutls_psk_allocate_server_credentials");
	R(psk_free_server_credentials, "gnutls_psk_free_server_credentials");
	R(psk_set_server_credentials_function, "gnutls_psk_set_server_credentials_function");
	R(record_check_pending, "gnutls_record_check_pending");
	R(record_get_direction, "gnutls_record_get_direction");
	R(record_recv, "gnutls_record_recv");
	R(record_send, "gnutls_record_send");
	R(session_get_ptr, "gnutls_session_get_ptr");
	R(session_set_ptr, "gnutls_session_set_ptr");
	R(strerror_, "gnutls_strerror");
	R(transport_set_int2, "gnutls_transport_set_int2");
#undef R
	if (real.global_init() < 0) {
		snprintf(why, size, "gnutls_global_init failed");
		return -1;
	}
	real.loaded = true;
	return 0;
}

/* Until loaded: success for the library's start and end, a GnuTLS error
 * for everything else (libmicrohttpd then refuses to start with TLS). */
#define FAIL GNUTLS_E_UNIMPLEMENTED_FEATURE
#define FWD(ret, none, name, field, params, args)                                                  \
	ret name params                                                                             \
	{                                                                                           \
		return real.loaded ? real.field args : (ret)(none);                                 \
	}
#define FWD_VOID(name, field, params, args)                                                     \
	void name params                                                                            \
	{                                                                                           \
		if (real.loaded)                                                                    \
			real.field args;                                                            \
	}

int
gnutls_global_init(void)
{
	return 0;
}

void
gnutls_global_deinit(void)
{
	if (real.loaded)
		real.global_deinit();
}

FWD(int, FAIL, gnutls_alpn_set_protocols, alpn_set_protocols,
    (gnutls_session_t s, const gnutls_datum_t *p, unsigned n, unsigned f), (s, p, n, f))
FWD(int, FAIL, gnutls_bye, bye, (gnutls_session_t s, gnutls_close_request_t how), (s, how))
FWD(int, FAIL, gnutls_certificate_allocate_credentials, certificate_allocate_credentials,
    (gnutls_certificate_credentials_t *res), (res))
FWD_VOID(gnutls_certificate_free_credentials, certificate_free_credentials,
	 (gnutls_certificate_credentials_t sc), (sc))
FWD_VOID(gnutls_certificate_server_set_request, certificate_server_set_request,
	 (gnutls_session_t s, gnutls_certificate_request_t req), (s, req))
FWD_VOID(gnutls_certificate_set_dh_params, certificate_set_dh_params,
	 (gnutls_certificate_credentials_t res, gnutls_dh_params_t dh), (res, dh))
FWD_VOID(gnutls_certificate_set_retrieve_function2, certificate_set_retrieve_function2,
	 (gnutls_certificate_credentials_t cred, gnutls_certificate_retrieve_function2 *fn), (cred, fn))
FWD_VOID(gnutls_certificate_set_retrieve_function3, certificate_set_retrieve_function3,
	 (gnutls_certificate_credentials_t cred, gnutls_certificate_retrieve_function3 *fn), (cred, fn))
FWD(int, FAIL, gnutls_certificate_set_x509_key_mem, certificate_set_x509_key_mem,
    (gnutls_certificate_credentials_t res, const gnutls_datum_t *cert, const gnutls_datum_t *key,
     gnutls_x509_crt_fmt_t type),
    (res, cert, key, type))
FWD(int, FAIL, gnutls_certificate_set_x509_key_mem2, certificate_set_x509_key_mem2,
    (gnutls_certificate_credentials_t res, const gnutls_datum_t *cert, const gnutls_datum_t *key,
     gnutls_x509_crt_fmt_t type, const char *pass, unsigned int flags),
    (res, cert, key, type, pass, flags))
FWD(int, FAIL, gnutls_certificate_set_x509_trust_mem, certificate_set_x509_trust_mem,
    (gnutls_certificate_credentials_t res, const gnutls_datum_t *ca, gnutls_x509_crt_fmt_t type),
    (res, ca, type))
FWD(gnutls_cipher_algorithm_t, GNUTLS_CIPHER_UNKNOWN, gnutls_cipher_get, cipher_get, (gnutls_session_t s), (s))
FWD(int, FAIL, gnutls_credentials_set, credentials_set,
    (gnutls_session_t s, gnutls_credentials_type_t type, void *cred), (s, type, cred))
FWD_VOID(gnutls_deinit, deinit, (gnutls_session_t s), (s))
FWD_VOID(gnutls_dh_params_deinit, dh_params_deinit, (gnutls_dh_params_t p), (p))
FWD(int, FAIL, gnutls_dh_params_import_pkcs3, dh_params_import_pkcs3,
    (gnutls_dh_params_t p, const gnutls_datum_t *pkcs3, gnutls_x509_crt_fmt_t f), (p, pkcs3, f))
FWD(int, FAIL, gnutls_dh_params_init, dh_params_init, (gnutls_dh_params_t *p), (p))
FWD(int, FAIL, gnutls_handshake, handshake, (gnutls_session_t s), (s))
FWD(int, FAIL, gnutls_init, init, (gnutls_session_t *s, unsigned int flags), (s, flags))
FWD_VOID(gnutls_priority_deinit, priority_deinit, (gnutls_priority_t p), (p))
FWD(int, FAIL, gnutls_priority_init, priority_init, (gnutls_priority_t *p, const char *prio, const char **err),
    (p, prio, err))
FWD(int, FAIL, gnutls_priority_set, priority_set, (gnutls_session_t s, gnutls_priority_t p), (s, p))
FWD(gnutls_protocol_t, GNUTLS_VERSION_UNKNOWN, gnutls_protocol_get_version, protocol_get_version,
    (gnutls_session_t s), (s))
FWD(int, FAIL, gnutls_psk_allocate_server_credentials, psk_allocate_server_credentials,
    (gnutls_psk_server_credentials_t *sc), (sc))
FWD_VOID(gnutls_psk_free_server_credentials, psk_free_server_credentials, (gnutls_psk_server_credentials_t sc),
	 (sc))
FWD_VOID(gnutls_psk_set_server_credentials_function, psk_set_server_credentials_function,
	 (gnutls_psk_server_credentials_t cred, gnutls_psk_server_credentials_function *fn), (cred, fn))
FWD(size_t, 0, gnutls_record_check_pending, record_check_pending, (gnutls_session_t s), (s))
FWD(int, 0, gnutls_record_get_direction, record_get_direction, (gnutls_session_t s), (s))
FWD(ssize_t, FAIL, gnutls_record_recv, record_recv, (gnutls_session_t s, void *data, size_t n), (s, data, n))
FWD(ssize_t, FAIL, gnutls_record_send, record_send, (gnutls_session_t s, const void *data, size_t n),
    (s, data, n))
FWD(void *, NULL, gnutls_session_get_ptr, session_get_ptr, (gnutls_session_t s), (s))
FWD_VOID(gnutls_session_set_ptr, session_set_ptr, (gnutls_session_t s, void *p), (s, p))
FWD(const char *, "GnuTLS not loaded", gnutls_strerror, strerror_, (int error), (error))
FWD_VOID(gnutls_transport_set_int2, transport_set_int2, (gnutls_session_t s, int r, int w), (s, r, w))
