#include "server/query_stream.h"

namespace gsparql::server {

QueryStream::Buffer::Buffer(QueryStream& stream) : stream_(stream) { setp(local_, local_ + sizeof(local_)); }

bool QueryStream::Buffer::hand() {
  const bool ok = stream_.append(pbase(), static_cast<size_t>(pptr() - pbase()));
  setp(local_, local_ + sizeof(local_));
  return ok;
}

QueryStream::Buffer::int_type QueryStream::Buffer::overflow(int_type c) {
  if (!hand()) return traits_type::eof();
  if (!traits_type::eq_int_type(c, traits_type::eof())) sputc(traits_type::to_char_type(c));
  return traits_type::not_eof(c);
}

int QueryStream::Buffer::sync() { return hand() ? 0 : -1; }

QueryStream::QueryStream(size_t windowBytes) : windowBytes_(windowBytes), buffer_(*this), out_(&buffer_) {}

bool QueryStream::append(const char* data, size_t size) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return abandoned_ || pending_.size() < windowBytes_; });
  if (abandoned_) return false;
  pending_.append(data, size);
  changed_.notify_all();
  return true;
}

void QueryStream::finish(std::exception_ptr error) {
  out_.flush();
  std::lock_guard lock(mutex_);
  finished_ = true;
  error_ = error;
  changed_.notify_all();
}

bool QueryStream::waitForFirstWindow(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, timeout, [&] { return finished_ || pending_.size() >= windowBytes_; });
}

bool QueryStream::waitForOutput(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, timeout, [&] { return finished_ || !pending_.empty(); });
}

bool QueryStream::finished() {
  std::lock_guard lock(mutex_);
  return finished_;
}

std::exception_ptr QueryStream::error() {
  std::lock_guard lock(mutex_);
  return error_;
}

bool QueryStream::next(std::string& chunk) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return finished_ || !pending_.empty(); });
  chunk.clear();
  chunk.swap(pending_);
  changed_.notify_all();
  return !chunk.empty();
}

void QueryStream::abandon() {
  std::lock_guard lock(mutex_);
  abandoned_ = true;
  pending_.clear();
  changed_.notify_all();
}

}  // namespace gsparql::server
