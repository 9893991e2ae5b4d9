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
  taken_.wait(lock, [&] { return abandoned_ || pending_.size() < windowBytes_; });
  if (abandoned_) return false;
  const bool wasEmpty = pending_.empty(), belowWindow = pending_.size() < windowBytes_;
  pending_.append(data, size);
  if (wasEmpty || (belowWindow && pending_.size() >= windowBytes_)) tell(lock);
  return true;
}

void QueryStream::finish(std::exception_ptr error) {
  out_.flush();
  std::unique_lock lock(mutex_);
  finished_ = true;
  error_ = error;
  tell(lock);
}

// Calls the listener without the lock: it may take() at once.
void QueryStream::tell(std::unique_lock<std::mutex>& lock) {
  std::function<void()> news = news_;
  lock.unlock();
  if (news) news();
}

bool QueryStream::firstWindowReady() {
  std::lock_guard lock(mutex_);
  return finished_ || pending_.size() >= windowBytes_;
}

bool QueryStream::finished() {
  std::lock_guard lock(mutex_);
  return finished_;
}

std::exception_ptr QueryStream::error() {
  std::lock_guard lock(mutex_);
  return error_;
}

BodySource::Next QueryStream::take(std::string& chunk) {
  std::lock_guard lock(mutex_);
  if (!pending_.empty()) {
    chunk.clear();
    chunk.swap(pending_);
    taken_.notify_all();
    return Next::Chunk;
  }
  if (!finished_) return Next::Waiting;
  return error_ ? Next::Failed : Next::End;
}

void QueryStream::onNews(std::function<void()> news) {
  std::lock_guard lock(mutex_);
  news_ = std::move(news);
}

void QueryStream::abandon() {
  std::lock_guard lock(mutex_);
  abandoned_ = true;
  pending_.clear();
  taken_.notify_all();
}

}  // namespace gsparql::server
