// tests/multiproc/hsdb_provider.cc — a provider process of hsdb_share_test: one program of
// the default engine (etw/shared_compiler.h) whose string maps need Hyperscan databases
// (globs, non-ASCII literals, more than 64 ASCII literals, regexes on a UTF-16 and an
// 8-bit field), routed next to the interpreter's program of the same spec. Driven over
// stdin/stdout, one line each:
//   (start)   prints "ready"
//   status    prints "status native=N interpreted=N loaded=N compiled=N refused=N why=TEXT"
//             (shared_code_status(); `why` the latest database refusal, to the line's end)
//   route S   routes 3000 events of random texts (seed S) through both programs and
//             prints "routed N delivered D bad B" (B: events whose decisions differ)
//   quit      exits 0
#include <cstdio>
#include <iostream>
#include <random>
#include <string>

#include "base/utf8.h"
#include "compiler/interp.h"
#include "etw/shared_compiler.h"
#include "test_util.h"

namespace {

using namespace pfc;
using pfc::testing::event;

// Event 1: {Name: UTF-16 string}; event 2: {Text: 8-bit string}. Six sessions, each the OR
// of one pattern Hyperscan or RE2 takes and 24 ASCII literals of both case rules.
ProgramSpec spec() {
  ProgramSpec s = pfc::testing::hs_spec(24, true);
  s.provider.name = "HsdbShare";
  s.provider.guid = Guid::from_provider_name("HsdbShare");
  return s;
}

// Pieces of the texts (UTF-8): the patterns' words in case variants, the characters whose
// foldings are the edge cases, other scripts.
const char* const kPieces[] = {"w1_3",
                               "W1_3",
                               "w4_8",
                               "w0_11",
                               "W5_20",
                               "stra\u00dfe",
                               "STRASSE",
                               "Stra\u1e9ee",
                               "\xc3\x89LAN",
                               "\xc3\xa9lan",
                               "\u212aelvin",
                               "kelvin",
                               "user5",
                               "Xser",
                               "xser",
                               "\xcf\x83",
                               "\xce\xa3",
                               "\xcf\x82",
                               "\xf0\x9f\x98\x80",
                               "\xe4\xb8\xad",
                               " ",
                               "-",
                               "plain"};

std::string random_text(std::mt19937& rng) {
  std::string t;
  for (unsigned n = rng() % 5; n > 0; --n) t += kPieces[rng() % std::size(kPieces)];
  return t;
}

Event random_event(std::mt19937& rng) {
  const std::string text = random_text(rng);
  std::vector<uint8_t> payload;
  if (rng() % 2 == 0) {
    std::u16string wide;
    utf8_to_utf16(text, wide);
    for (char16_t c : wide) {
      payload.push_back(uint8_t(c));
      payload.push_back(uint8_t(c >> 8));
    }
    payload.insert(payload.end(), {0, 0});
    return event(1, 0, 0, payload);
  }
  payload.assign(text.begin(), text.end());
  payload.push_back(0);
  return event(2, 0, 0, payload);
}

void status() {
  const etw::SharedCodeStatus s = etw::shared_code_status();
  std::printf("status native=%llu interpreted=%llu loaded=%llu compiled=%llu refused=%llu why=%s\n",
              static_cast<unsigned long long>(s.native),
              static_cast<unsigned long long>(s.interpreted),
              static_cast<unsigned long long>(s.databases_loaded),
              static_cast<unsigned long long>(s.databases_compiled),
              static_cast<unsigned long long>(s.databases_refused),
              (s.last_database_error.empty() ? s.last_error : s.last_database_error).c_str());
}

}  // namespace

int main() {
  auto shared = etw::make_shared_compiler()->compile(spec());
  auto reference = InterpCompiler().compile(spec());
  if (!shared || !reference) {
    std::printf("error %s\n", (!shared ? shared.error() : reference.error()).message.c_str());
    return 1;
  }
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  std::printf("ready\n");
  for (std::string line; std::getline(std::cin, line) && line != "quit";) {
    if (line == "status") {
      status();
    } else if (line.rfind("route ", 0) == 0) {
      std::mt19937 rng(static_cast<unsigned>(std::stoul(line.substr(6))));
      unsigned routed = 0, delivered = 0, bad = 0;
      for (; routed < 3000; ++routed) {
        const Event e = random_event(rng);
        const RouteResult got = (*shared)->route(e.view());
        delivered += got.deliver != 0;
        bad += got != (*reference)->route(e.view());
      }
      std::printf("routed %u delivered %u bad %u\n", routed, delivered, bad);
    } else {
      std::printf("unknown %s\n", line.c_str());
    }
  }
  return 0;
}
