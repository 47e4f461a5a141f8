// base/hex.cc — hex formatting (see hex.h).
#include "base/hex.h"

#include <algorithm>

namespace pfc {

void append_hex(std::string& out, uint64_t v, int min_digits, HexCase letters) {
  char digits[16];
  int n = 0;
  do {
    digits[n++] = hex_digit(static_cast<unsigned>(v), letters);
    v >>= 4;
  } while (v != 0);
  for (int i = std::clamp(min_digits, 1, 16); i > n; --i) out.push_back('0');
  while (n > 0) out.push_back(digits[--n]);
}

std::string to_hex(uint64_t v, int min_digits, HexCase letters) {
  std::string out = "0x";
  append_hex(out, v, min_digits, letters);
  return out;
}

void append_byte_escape(std::string& out, uint8_t byte, HexCase letters) {
  out += "\\x";
  append_hex(out, byte, 2, letters);
}

}  // namespace pfc
