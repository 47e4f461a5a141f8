// cli/mc_header.cc — mc_header (cli/mc_header.h): the header text, in mc.exe's order and
// with its names — per provider the GUID, value macros, descriptors, enable bits, context,
// handle and macros, then one Template_<signature> function per distinct field layout.
#include "cli/mc_header.h"

#include <cinttypes>
#include <cstdio>
#include <map>
#include <optional>
#include <utility>

#include "base/ascii.h"
#include "base/quote.h"
#include "cli/mc_text.h"

namespace pfc::cli {
namespace {

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%" PRIx64, v);
  return buf;
}

// mc's C identifier for a name: characters other than letters, digits and '_' become '_'.
std::string identifier(std::string_view name) {
  std::string out(name);
  for (char& c : out)
    if (!is_ascii_alnum(c) && c != '_') c = '_';
  if (out.empty() || is_ascii_digit(out[0])) out.insert(out.begin(), '_');
  return out;
}

// True for a C identifier: a letter or '_', then letters, digits and '_'.
bool is_identifier(std::string_view s) {
  if (s.empty() || is_ascii_digit(s[0])) return false;
  for (char c : s)
    if (!is_ascii_alnum(c) && c != '_') return false;
  return true;
}

// The error for a `symbol` attribute that is not a C identifier (the header would not
// compile), or nullopt.
std::optional<McError> bad_symbol(std::string_view symbol, ManifestPosition at) {
  if (symbol.empty() || is_identifier(symbol)) return std::nullopt;
  return McError{at, "symbol " + quote_text(symbol) +
                         " is not a C identifier (letters, digits and '_', not starting with a "
                         "digit)"};
}

// The first symbol of the provider that is not a C identifier.
std::optional<McError> check_symbols(const ManifestProviderInfo& info) {
  if (auto e = bad_symbol(info.symbol, info.at)) return e;
  for (const auto* list :
       {&info.channels, &info.levels, &info.opcodes, &info.tasks, &info.keywords}) {
    for (const ManifestSymbol& s : *list)
      if (auto e = bad_symbol(s.symbol, s.at)) return e;
  }
  for (const ManifestEvent& e : info.events)
    if (auto bad = bad_symbol(e.symbol, e.at)) return bad;
  return std::nullopt;
}

// How mc passes one in-type: its letter in template names, the parameter type of one value
// (by_pointer: the argument points to the value) and the element type of an array of it.
struct McType {
  char letter;
  const char* param;
  const char* element;
  bool by_pointer;
};

// A SID's size is 8 + 4 × its SubAuthorityCount (byte 1); mc calls GetLengthSid.
McType mc_type(InType t) {
  switch (t) {
    case InType::UnicodeString: return McType{'z', "PCWSTR", "WCHAR", true};
    case InType::AnsiString: return McType{'s', "LPCSTR", "CHAR", true};
    case InType::Int8: return McType{'c', "const signed char", "signed char", false};
    case InType::UInt8: return McType{'u', "const UCHAR", "UCHAR", false};
    case InType::Int16: return McType{'l', "const signed short", "signed short", false};
    case InType::UInt16: return McType{'h', "const unsigned short", "unsigned short", false};
    case InType::Int32: return McType{'d', "const signed int", "signed int", false};
    case InType::UInt32: return McType{'q', "const unsigned int", "unsigned int", false};
    case InType::Int64: return McType{'i', "const LONGLONG", "LONGLONG", false};
    case InType::UInt64: return McType{'x', "const ULONGLONG", "ULONGLONG", false};
    case InType::Float: return McType{'f', "const float", "float", false};
    case InType::Double: return McType{'g', "const double", "double", false};
    case InType::Boolean: return McType{'t', "const BOOL", "BOOL", false};
    case InType::Binary: return McType{'b', "const BYTE*", "BYTE", true};
    case InType::Guid: return McType{'j', "LPCGUID", "GUID", true};
    case InType::Pointer: return McType{'p', "const void *", "PVOID", false};
    case InType::FileTime: return McType{'m', "const FILETIME*", "FILETIME", true};
    case InType::SystemTime: return McType{'y', "const SYSTEMTIME*", "SYSTEMTIME", true};
    case InType::HexInt32: return McType{'q', "const unsigned int", "unsigned int", false};
    case InType::HexInt64: return McType{'x', "const ULONGLONG", "ULONGLONG", false};
    case InType::Sid: return McType{'n', "const void *", "BYTE", true};
  }
  return McType{'q', "const unsigned int", "unsigned int", false};  // not reached
}

// A count or length in C: the referenced field's argument or the constant.
std::string extent_c(const Extent& e) {
  return e.kind == Extent::Kind::Field ? "_Arg" + std::to_string(e.value) : std::to_string(e.value);
}

// The extent's part of the template name: R<index> for a field, the number for a constant.
std::string extent_name(const Extent& e) {
  if (!e.present()) return "";
  return e.kind == Extent::Kind::Field ? "R" + std::to_string(e.value) : std::to_string(e.value);
}

bool takes_length(InType t) {
  return t == InType::UnicodeString || t == InType::AnsiString || t == InType::Binary;
}

// The template's signature (mc's Template_<signature> name), or the error for the first
// field the generated code cannot pass.
std::expected<std::string, McError> signature(const ManifestTemplate& tpl) {
  if (!tpl.stopped.empty()) {
    return std::unexpected(McError{tpl.stopped_at, "template " + quote_text(tpl.tid) + ": " +
                                                       tpl.stopped +
                                                       " cannot be laid out (docs/etw.md)"});
  }
  std::string sig;
  for (size_t i = 0; i < tpl.fields.size(); ++i) {
    const FieldDef& f = tpl.fields[i];
    const McType t = mc_type(f.type);
    const ManifestPosition at = i < tpl.fields_at.size() ? tpl.fields_at[i] : ManifestPosition{};
    if (f.count.present() && takes_length(f.type)) {
      return std::unexpected(McError{at, "data " + quote_text(f.name) + " of template " +
                                             quote_text(tpl.tid) +
                                             ": arrays of strings or binaries have no "
                                             "EventWrite argument in pfc mc"});
    }
    for (size_t j = 0; j < i; ++j) {  // EventWrite<Event>'s parameters must differ
      if (identifier(tpl.fields[j].name) == identifier(f.name)) {
        return std::unexpected(McError{at, "data " + quote_text(tpl.fields[j].name) + " and " +
                                               quote_text(f.name) + " of template " +
                                               quote_text(tpl.tid) + " are both the argument " +
                                               identifier(f.name)});
      }
    }
    sig += t.letter;
    sig += extent_name(f.count.present() ? f.count : f.length);
  }
  return sig;
}

// One EventDataDescCreate for field `i` of a template function.
std::string data_desc(const FieldDef& f, size_t i) {
  const McType t = mc_type(f.type);
  const std::string arg = "_Arg" + std::to_string(i);
  const std::string at = "    EventDataDescCreate(&EventData[" + std::to_string(i) + "], ";
  if (f.count.present()) {
    return at + arg + ", (ULONG)(sizeof(" + t.element + ")*" + extent_c(f.count) + "));\n\n";
  }
  if (f.length.present()) {
    return at + arg + ", (ULONG)(sizeof(" + t.element + ")*" + extent_c(f.length) + "));\n\n";
  }
  if (f.type == InType::AnsiString) {
    return at + "\n                        (" + arg + " != NULL) ? " + arg +
           " : \"NULL\",\n                        (" + arg + " != NULL) ? (ULONG)((strlen(" + arg +
           ") + 1) * sizeof(CHAR)) : (ULONG)sizeof(\"NULL\"));\n\n";
  }
  if (f.type == InType::UnicodeString) {  // WCHAR is UTF-16 here: u"" (docs/porting.md)
    return at + "\n                        (" + arg + " != NULL) ? " + arg +
           " : u\"NULL\",\n                        (" + arg + " != NULL) ? (ULONG)((wcslen(" + arg +
           ") + 1) * sizeof(WCHAR)) : (ULONG)sizeof(u\"NULL\"));\n\n";
  }
  if (f.type == InType::Sid)
    return at + arg + ", (ULONG)(8 + 4 * ((const BYTE*)" + arg + ")[1]));\n\n";
  if (t.by_pointer) return at + arg + ", sizeof(" + t.element + "));\n\n";
  return at + "&" + arg + ", sizeof(" + t.param + "));\n\n";
}

// One parameter line of a template function.
std::string parameter(const FieldDef& f, size_t i) {
  const McType t = mc_type(f.type);
  const std::string arg = "  _Arg" + std::to_string(i);
  if (f.count.present())
    return "    _In_reads_(" + extent_c(f.count) + ") const " + t.element + " *" + arg;
  if (f.length.present())
    return "    _In_reads_(" + extent_c(f.length) + ") const " + t.element + "*" + arg;
  if (f.type == InType::AnsiString || f.type == InType::UnicodeString)
    return "    _In_opt_ " + std::string(t.param) + arg;
  return "    _In_ " + std::string(t.param) + arg;
}

std::string template_function(const std::string& sig, const ManifestTemplate& tpl) {
  const std::string name = "Template_" + sig;
  const std::string count = "ARGUMENT_COUNT_" + sig;
  std::string out = "//\n//Template from manifest : " + tpl.tid + "\n//\n#ifndef " + name +
                    "_def\n#define " + name + "_def\nETW_INLINE\nULONG\n" + name +
                    "(\n    _In_ REGHANDLE RegHandle,\n    _In_ PCEVENT_DESCRIPTOR Descriptor";
  for (size_t i = 0; i < tpl.fields.size(); ++i) out += ",\n" + parameter(tpl.fields[i], i);
  out += "\n    )\n{\n#define " + count + " " + std::to_string(tpl.fields.size()) +
         "\n\n    EVENT_DATA_DESCRIPTOR EventData[" + count + "];\n\n";
  for (size_t i = 0; i < tpl.fields.size(); ++i) out += data_desc(tpl.fields[i], i);
  return out + "    return EventWrite(RegHandle, Descriptor, " + count +
         ", EventData);\n}\n#endif\n\n";
}

// "#define SYMBOL VALUE" lines under a `title` comment; nothing for no symbols.
std::string value_macros(std::string_view title, const std::vector<ManifestSymbol>& symbols) {
  if (symbols.empty()) return "";
  std::string out = "//\n// " + std::string(title) + "\n//\n";
  for (const ManifestSymbol& s : symbols) out += "#define " + s.symbol + " " + hex(s.value) + "\n";
  return out + "\n";
}

std::string guid_c(const Guid& g) {
  char buf[128];
  std::snprintf(buf, sizeof buf,
                "{0x%08x, 0x%04x, 0x%04x, {0x%02x, 0x%02x, 0x%02x, 0x%02x, 0x%02x, 0x%02x, "
                "0x%02x, 0x%02x}}",
                g.data1, g.data2, g.data3, g.data4[0], g.data4[1], g.data4[2], g.data4[3],
                g.data4[4], g.data4[5], g.data4[6], g.data4[7]);
  return buf;
}

std::string descriptor_c(const EventDescriptor& d) {
  return "{" + hex(d.id) + ", " + hex(d.version) + ", " + hex(d.channel) + ", " + hex(d.level) +
         ", " + hex(d.opcode) + ", " + hex(d.task) + ", " + hex(d.keyword) + "}";
}

// MCGEN_TRACE_CONTEXT::EnableBitsCount is a USHORT.
constexpr size_t kMaxEnableBits = 0xFFFF;

// Writes one provider; templates_used collects the template functions its events call.
class ProviderWriter {
 public:
  ProviderWriter(const ProviderDef& def, const ManifestProviderInfo& info,
                 std::map<std::string, const ManifestTemplate*>& templates_used,
                 std::vector<std::string>& template_order)
      : def_(def), info_(info), used_(templates_used), order_(template_order) {
    name_ = identifier(def.name);
    guid_ = info.symbol.empty() ? name_ : info.symbol;
  }

  std::expected<std::string, McError> write() {
    if (std::optional<McError> bad = check_symbols(info_)) return std::unexpected(*bad);
    std::string out = "//+\n// Provider " + def_.name + " Event Count " +
                      std::to_string(def_.events.size()) +
                      "\n//+\nEXTERN_C __declspec(selectany) const GUID " + guid_ + " = " +
                      guid_c(def_.guid) + ";\n\n";
    out += value_macros("Channel", info_.channels);
    out += value_macros("Levels", info_.levels);
    out += value_macros("Opcodes", info_.opcodes);
    out += value_macros("Tasks", info_.tasks);
    out += value_macros("Keyword", info_.keywords);
    out += "//\n// Event Descriptors\n//\n";
    for (size_t i = 0; i < def_.events.size(); ++i) {
      const std::string& sym = info_.events[i].symbol;
      if (sym.empty()) continue;
      const EventDescriptor& d = def_.events[i].desc;
      out += "EXTERN_C __declspec(selectany) const EVENT_DESCRIPTOR ";
      out += sym + " = " + descriptor_c(d) + ";\n";
      out += "#define " + sym + "_value " + hex(d.id) + "\n";
      bit_of(d);
    }
    if (bits_.size() > kMaxEnableBits) {
      return std::unexpected(McError{
          info_.at, "provider " + quote_text(def_.name) + " has " + std::to_string(bits_.size()) +
                        " distinct level and keyword pairs; mc's enable bits count at most " +
                        std::to_string(kMaxEnableBits)});
    }
    out += std::string(kMcNote) + "//\n// Allow disabling of code generation\n//\n" +
           "#ifndef MCGEN_DISABLE_PROVIDER_CODE_GENERATION\n\n" + globals() +
           std::string(kMcRegister) + register_macros();
    for (size_t i = 0; i < def_.events.size(); ++i) {
      if (info_.events[i].symbol.empty()) continue;
      auto macros = event_macros(def_.events[i], info_.events[i]);
      if (!macros) return std::unexpected(macros.error());
      out += *macros;
    }
    return out + "#endif // MCGEN_DISABLE_PROVIDER_CODE_GENERATION\n\n";
  }

 private:
  // The event's enable bit: one per distinct (level, keyword), in order of first use.
  size_t bit_of(const EventDescriptor& d) {
    const auto [it, added] = bit_index_.try_emplace({d.level, d.keyword}, bits_.size());
    if (added) bits_.push_back(it->first);
    return it->second;
  }

  std::string globals() const {
    const size_t n = bits_.size();
    std::string keywords, levels;
    for (size_t i = 0; i < n; ++i) {
      keywords += (i ? ", " : "") + hex(bits_[i].second);
      levels += (i ? ", " : "") + std::to_string(bits_[i].first);
    }
    if (n == 0) keywords = levels = "0";  // C has no empty arrays; EnableBitsCount is 0
    const std::string size = std::to_string(n == 0 ? 1 : n);
    return "//\n// Event Enablement Bits\n//\n\nEXTERN_C __declspec(selectany) DECLSPEC_CACHEALIGN "
           "ULONG " +
           name_ + "EnableBits[" + std::to_string(n == 0 ? 1 : (n + 31) / 32) +
           "];\nEXTERN_C __declspec(selectany) const ULONGLONG " + name_ + "Keywords[" + size +
           "] = {" + keywords + "};\nEXTERN_C __declspec(selectany) const UCHAR " + name_ +
           "Levels[" + size + "] = {" + levels +
           "};\nEXTERN_C __declspec(selectany) MCGEN_TRACE_CONTEXT " + guid_ +
           "_Context = {0, 0, 0, 0, 0, 0, 0, 0, " + std::to_string(n) + ", " + name_ +
           "EnableBits, " + name_ + "Keywords, " + name_ +
           "Levels};\n\nEXTERN_C __declspec(selectany) REGHANDLE " + name_ +
           "Handle = (REGHANDLE)0;\n\n";
  }

  std::string register_macros() const {
    return "//\n// Register with ETW Vista +\n//\n#ifndef EventRegister" + name_ +
           "\n#define EventRegister" + name_ + "() McGenEventRegister(&" + guid_ +
           ", McGenControlCallbackV2, &" + guid_ + "_Context, &" + name_ +
           "Handle) \n#endif\n\n//\n// UnRegister with ETW\n//\n#ifndef EventUnregister" + name_ +
           "\n#define EventUnregister" + name_ + "() McGenEventUnregister(&" + name_ +
           "Handle) \n#endif\n\n";
  }

  std::expected<std::string, McError> event_macros(const EventDef& ev, const ManifestEvent& me) {
    const size_t bit = bit_of(ev.desc);
    char mask[16];
    std::snprintf(mask, sizeof mask, "0x%08x", 1u << (bit % 32));
    const std::string& sym = me.symbol;
    std::string out = "//\n// Enablement check macro for " + sym + "\n//\n\n#define EventEnabled" +
                      sym + "() ((" + name_ + "EnableBits[" + std::to_string(bit / 32) + "] & " +
                      mask + ") != 0)\n\n//\n// Event Macro for " + sym +
                      "\n//\n#define EventWrite" + sym + "(";
    std::string call = "TemplateEventDescriptor(" + name_ + "Handle, &" + sym;
    const ManifestTemplate* tpl = me.tid.empty() ? nullptr : find_template(me.tid);
    std::expected<std::string, McError> sig;  // "" without a template
    if (tpl != nullptr) sig = signature(*tpl);
    if (!sig) return std::unexpected(sig.error());
    if (!sig->empty()) {  // a template without fields writes as no template does
      if (used_.emplace(*sig, tpl).second) order_.push_back(*sig);
      call = "Template_" + *sig + "(" + name_ + "Handle, &" + sym;
      for (size_t i = 0; i < ev.fields.size(); ++i) {
        const std::string arg = identifier(ev.fields[i].name);
        out += (i ? ", " : "") + arg;
        call += ", " + arg;
      }
    } else {
      used_.emplace("", nullptr);
    }
    return out + ")\\\n        EventEnabled" + sym + "() ?\\\n        " + call +
           ")\\\n        : ERROR_SUCCESS\\\n\n";
  }

  const ManifestTemplate* find_template(std::string_view tid) const {
    for (const ManifestTemplate& t : info_.templates)
      if (t.tid == tid) return &t;
    return nullptr;  // the parser rejected events naming unknown templates
  }

  const ProviderDef& def_;
  const ManifestProviderInfo& info_;
  std::map<std::string, const ManifestTemplate*>& used_;
  std::vector<std::string>& order_;
  std::string name_;  // the provider name as an identifier (…EnableBits, …Handle)
  std::string guid_;  // the provider's symbol (its GUID and …_Context)
  std::vector<std::pair<uint8_t, uint64_t>> bits_;  // level and keyword of each enable bit
  std::map<std::pair<uint8_t, uint64_t>, size_t> bit_index_;
};

}  // namespace

std::expected<std::string, McError> mc_header(const std::vector<ProviderDef>& providers,
                                              const std::vector<ManifestProviderInfo>& info,
                                              std::string_view source) {
  std::string out = "// Generated by pfc mc -um from " + std::string(source) +
                    " (docs/cli.md): the header mc.exe -um writes for it. Do not edit.\n\n";
  out += std::string(kMcIncludes) + std::string(kMcContext);
  std::map<std::string, const ManifestTemplate*> used;  // signature → first template
  std::vector<std::string> order;
  for (size_t i = 0; i < providers.size() && i < info.size(); ++i) {
    ProviderWriter writer(providers[i], info[i], used, order);
    auto text = writer.write();
    if (!text) return std::unexpected(text.error());
    out += *text;
  }
  out +=
      "\n//\n// Allow disabling of code generation\n//\n"
      "#ifndef MCGEN_DISABLE_PROVIDER_CODE_GENERATION\n\n//\n// Template Functions\n//\n";
  if (used.contains("")) out += kMcNoTemplate;
  for (const std::string& sig : order) out += template_function(sig, *used.at(sig));
  return out + std::string(kMcEnd);
}

}  // namespace pfc::cli
