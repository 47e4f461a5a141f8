// etw/tdh_context.h — the schemas of the trace whose events a consumer thread is
// delivering, for TDH decoding inside an EventRecordCallback (docs/etw.md "TDH
// decoding"): a log file's recorded provider schemas (docs/logfile.md), or the schemas
// the enables of a real-time session published (`pfc trace enable --script`).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "etw/tdh_store.h"
#include "trace/logfile.h"

namespace pfc::etw {

// The providers one log-file schema describes (none when it does not decode): a manifest
// with its decoding information, or the schema of a pfc enable extension.
std::vector<LoadedProvider> decode_log_schema(const trace::ProviderSchema& s);

// One trace's provider schemas, fetched on first use and again when a GUID is not found
// (an enable may publish a schema after the consumer opened the trace). Thread-safe.
class TraceSchemas {
 public:
  using Fetch = std::function<std::vector<LoadedProvider>()>;
  explicit TraceSchemas(Fetch fetch) : fetch_(std::move(fetch)) {}
  std::shared_ptr<const LoadedProvider> find(const Guid& guid);
  // Fetches now: a real-time session's schemas while its enables are published (a
  // session stopped before its events are delivered no longer publishes them).
  void prefetch();

 private:
  void refresh();  // mu_ held

  Fetch fetch_;
  std::mutex mu_;
  std::map<Guid, std::shared_ptr<const LoadedProvider>, GuidBytesLess> by_guid_;
};

// A log file's schemas; `info` must outlive the result's use.
std::shared_ptr<TraceSchemas> log_file_schemas(const trace::LogInfo& info);
// The schemas session `name` publishes.
std::shared_ptr<TraceSchemas> session_trace_schemas(std::u16string name);

// Makes `schemas` the calling thread's delivering trace while it lives (nests).
class DeliveryScope {
 public:
  explicit DeliveryScope(TraceSchemas* schemas);
  ~DeliveryScope();
  DeliveryScope(const DeliveryScope&) = delete;
  DeliveryScope& operator=(const DeliveryScope&) = delete;

 private:
  TraceSchemas* saved_;
};

// The description of `guid` in the calling thread's delivering trace, or null (also
// outside a callback).
std::shared_ptr<const LoadedProvider> delivering_provider(const Guid& guid);

}  // namespace pfc::etw
