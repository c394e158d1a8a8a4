// The call ladder's functions for Node, as a Node-API addon (build/ladder.node): each
// takes its JS arguments, calls calls/native.c and makes the JS result, as any addon
// does. Node-API is ABI-stable, so one build loads in every Node the lab measures.
#include <node_api.h>

#include "native.h"

static napi_value Int32(napi_env env, int32_t value) {
  napi_value out;
  napi_create_int32(env, value, &out);
  return out;
}

static napi_value Noop(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value arg;
  int32_t x = 0;
  napi_get_cb_info(env, info, &argc, &arg, NULL, NULL);
  if (argc < 1 || napi_get_value_int32(env, arg, &x) != napi_ok) {
    napi_throw_type_error(env, NULL, "noop takes a number");
    return NULL;
  }
  return Int32(env, ladder_noop(x));
}

static napi_value Getppid(napi_env env, napi_callback_info info) {
  (void)info;
  return Int32(env, ladder_getppid());
}

static napi_value CpuNs(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value out;
  napi_create_double(env, ladder_cpu_ns(), &out);
  return out;
}

static napi_value Init(napi_env env, napi_value exports) {
  const napi_property_descriptor functions[] = {
      {"noop", NULL, Noop, NULL, NULL, NULL, napi_enumerable, NULL},
      {"getppid", NULL, Getppid, NULL, NULL, NULL, napi_enumerable, NULL},
      {"cpuNs", NULL, CpuNs, NULL, NULL, NULL, napi_enumerable, NULL},
  };
  napi_define_properties(env, exports, sizeof functions / sizeof functions[0], functions);
  return exports;
}

NAPI_MODULE_INIT() { return Init(env, exports); }
