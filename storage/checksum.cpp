#include "storage/checksum.h"

#include <zlib.h>

namespace gsparql {

uint32_t crc32Update(uint32_t crc, const void* data, size_t bytes) {
  if (bytes == 0) return crc;  // zlib answers a null buffer with the initial value
  return static_cast<uint32_t>(crc32_z(crc, static_cast<const Bytef*>(data), bytes));
}

}  // namespace gsparql
