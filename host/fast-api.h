// V8 fast API calls for just-host: our own minimal declarations.
//
// WHY THIS FILE EXISTS: V8 can call a C++ function straight from
// TurboFan-optimised code (no FunctionCallbackInfo, no API exit frame, no
// handle scope), but the declarations live in v8-fast-api-calls.h, which
// Debian's libnode-dev does not ship. libnode.so.108 does export the two
// out-of-line constructors V8 needs (CFunctionInfo::CFunctionInfo and
// CFunction::CFunction) and FunctionTemplate::New takes a `const CFunction*`,
// so it is enough to declare those classes ourselves -- with EXACTLY the
// layout of V8 10.2.154 (Node 18's V8), because V8 reads them as raw memory:
//   CTypeInfo        3 bytes: Type, SequenceType, Flags (uint8_t each)
//   CFunctionInfo    CTypeInfo return_info_; unsigned arg_count_;
//                    const CTypeInfo* arg_info_
//   CFunction        const void* address_; const CFunctionInfo* type_info_
//   FastApiCallbackOptions  bool fallback; then the template's `data`
// The Type numbering was checked against libnode itself: Node's own
// CFunctionInfo for `void f(Local<Value>)` stores 0x08 (kV8Value) as its
// argument type, i.e. 10.2 has no kUint8 yet (it came later and shifted the
// enum). Any other V8 version must not use this file: see the static_assert.
//
// Only what just-host uses is declared: scalar and Local<Value> arguments
// and overloads by argument count; no typed-array arguments (10.2's
// FastApiTypedArray has no uint8_t element type, so it cannot describe a
// byte buffer anyway), no ApiObject.
#ifndef SYSCALL_LAB_HOST_FAST_API_H
#define SYSCALL_LAB_HOST_FAST_API_H

#include <v8.h>

#include <cstddef>
#include <cstdint>

static_assert(V8_MAJOR_VERSION == 10 && V8_MINOR_VERSION == 2,
              "host/fast-api.h mirrors V8 10.2's v8-fast-api-calls.h layout; "
              "re-check every class below against the V8 you build with");

namespace v8 {

class CTypeInfo {
 public:
  enum class Type : uint8_t {
    kVoid,
    kBool,
    kInt32,
    kUint32,
    kInt64,
    kUint64,
    kFloat32,
    kFloat64,
    kV8Value,
    kApiObject,
  };
  // Marks the trailing FastApiCallbackOptions& parameter (not in the enum).
  static constexpr Type kCallbackOptionsType = Type(255);
  enum class SequenceType : uint8_t { kScalar, kIsSequence, kIsTypedArray,
                                      kIsArrayBuffer };
  enum class Flags : uint8_t { kNone = 0 };

  explicit constexpr CTypeInfo(Type type)
      : type_(type), sequence_type_(SequenceType::kScalar),
        flags_(Flags::kNone) {}

 private:
  Type type_;
  SequenceType sequence_type_;
  Flags flags_;
};

class V8_EXPORT CFunctionInfo {
 public:
  // Defined in libnode. arg_info includes the receiver (first) and, if
  // present, the options parameter (last, kCallbackOptionsType).
  CFunctionInfo(const CTypeInfo& return_info, unsigned int arg_count,
                const CTypeInfo* arg_info);

 private:
  const CTypeInfo return_info_;
  const unsigned int arg_count_;
  const CTypeInfo* arg_info_;
};

class V8_EXPORT CFunction {
 public:
  CFunction(const void* address, const CFunctionInfo* type_info);

 private:
  const void* address_;
  const CFunctionInfo* type_info_;
};

// Last parameter of a fast function that may refuse the call: setting
// `fallback` makes V8 run the slow FunctionCallback for the same call right
// after the fast one returns (its return value is then discarded). So a fast
// function must not have side effects before it decides to fall back.
struct FastApiCallbackOptions {
  bool fallback;
  uintptr_t data;  // V8: union { uintptr_t data_ptr; v8::Value data; }
};

static_assert(sizeof(CTypeInfo) == 3, "CTypeInfo is 3 bytes in V8 10.2");
static_assert(sizeof(CFunctionInfo) == 8 + sizeof(void*),
              "CFunctionInfo layout differs from V8 10.2");
static_assert(sizeof(CFunction) == 2 * sizeof(void*),
              "CFunction layout differs from V8 10.2");
static_assert(offsetof(FastApiCallbackOptions, fallback) == 0,
              "FastApiCallbackOptions::fallback must come first (V8 10.2)");

}  // namespace v8

namespace host {

// kFast<F...>: the CFunction overloads for F..., each with its CTypeInfo
// list derived from the function's C++ signature (our small stand-in for
// V8's CFunction::Make, whose template machinery we do not copy). Deriving
// it keeps the declared types and the real signature from drifting apart: a
// mismatch would make V8 pass arguments in the wrong registers.
//
// V8 10.2 picks an overload by argument count only (TurboFan keeps the
// overloads whose arity equals the call site's), so one function per arity,
// e.g. kFast<Read2, Read4> for read(fd, buf) and read(fd, buf, off, len). A
// call site whose arity matches none stays a regular (slow) call.
namespace fast_api_detail {
using Type = v8::CTypeInfo::Type;
template <typename T> struct TypeOf;  // unsupported types fail to compile
template <> struct TypeOf<void> { static constexpr Type kType = Type::kVoid; };
template <> struct TypeOf<bool> { static constexpr Type kType = Type::kBool; };
template <> struct TypeOf<int32_t> { static constexpr Type kType = Type::kInt32; };
template <> struct TypeOf<uint32_t> { static constexpr Type kType = Type::kUint32; };
template <> struct TypeOf<int64_t> { static constexpr Type kType = Type::kInt64; };
template <> struct TypeOf<double> { static constexpr Type kType = Type::kFloat64; };
template <> struct TypeOf<v8::Local<v8::Value>> {
  static constexpr Type kType = Type::kV8Value;
};
template <> struct TypeOf<v8::FastApiCallbackOptions&> {
  static constexpr Type kType = v8::CTypeInfo::kCallbackOptionsType;
};

template <typename Fn> struct Signature;
template <typename R, typename... Args> struct Signature<R (*)(Args...)> {
  // 10.2 returns only void/bool/int32/uint32/float/double from a fast call.
  static_assert(TypeOf<R>::kType != Type::kV8Value, "bad fast return type");
  static constexpr v8::CTypeInfo kReturn{TypeOf<R>::kType};
  static constexpr v8::CTypeInfo kArgs[] = {v8::CTypeInfo(TypeOf<Args>::kType)...};
  // Built before main() (the constructor is out of line, in libnode).
  static inline const v8::CFunctionInfo kInfo{kReturn, sizeof...(Args), kArgs};
};

template <auto... F> struct Overloads {
  // Built from kInfo's address only, so initialisation order between the
  // two does not matter.
  static inline const v8::CFunction kList[] = {v8::CFunction(
      reinterpret_cast<const void*>(F), &Signature<decltype(F)>::kInfo)...};
};
}  // namespace fast_api_detail

// A constant, so the binding table stays constant-initialised.
template <auto... F>
constexpr v8::MemorySpan<const v8::CFunction> kFast{
    fast_api_detail::Overloads<F...>::kList, sizeof...(F)};

}  // namespace host

#endif  // SYSCALL_LAB_HOST_FAST_API_H
