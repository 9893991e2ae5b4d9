#include "server_fixture.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <sstream>

#include "support/test_support.h"

namespace gsparql::test {

const std::filesystem::path& sf1Dir() {
  static TempDir dir;
  static const bool loaded = [] {
    Database::load(dir.path(), {dataFile("watdiv/sf1.nt.zst")});
    return true;
  }();
  (void)loaded;
  return dir.path();
}

const Database& sf1() {
  static Database db(sf1Dir());
  return db;
}

std::string watdivQuery(const std::string& name) {
  return readText(dataFile("watdiv/sf1/queries/" + name + ".rq"));
}

const std::vector<std::string>& watdivNames() {
  static const std::vector<std::string> names{"C3_01", "F3_07", "F4_11", "F5_02", "L1_02", "L2_02",
                                              "L3_10", "L4_01", "L5_02", "S1_08", "S2_08", "S6_02"};
  return names;
}

int connectTo(int port) {
  const int sock = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (sock >= 0 && ::connect(sock, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0) return sock;
  if (sock >= 0) ::close(sock);
  return -1;
}

std::string rawExchange(int port, const std::string& request, std::chrono::milliseconds patience) {
  const int sock = connectTo(port);
  if (sock < 0) return {};
  std::string response;
  if (::write(sock, request.data(), request.size()) == static_cast<ssize_t>(request.size())) {
    const auto deadline = std::chrono::steady_clock::now() + patience;
    char buffer[65536];
    for (auto left = patience; left.count() > 0;
         left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now())) {
      pollfd p{sock, POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) break;
      const ssize_t n = ::read(sock, buffer, sizeof(buffer));
      if (n <= 0) break;
      response.append(buffer, static_cast<size_t>(n));
    }
  }
  ::close(sock);
  return response;
}

std::vector<std::string> sortedTsvRows(const std::string& tsv) {
  std::vector<std::string> rows;
  std::istringstream in(tsv);
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) rows.push_back(line);
  std::sort(rows.begin(), rows.end());
  return rows;
}

std::vector<std::string> sortedRowsOf(const QueryResult& result) {
  std::ostringstream tsv;
  result.write(tsv, ResultFormat::Tsv);
  return sortedTsvRows(tsv.str());
}

}  // namespace gsparql::test
