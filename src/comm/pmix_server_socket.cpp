// The rank's connection to its local PMIx server (mpirun or orted), made prompt
// (docs/distributed.md "Start-up on one machine"). Open MPI 4.1 with PMIx 4.2 connects each rank
// to the server over loopback TCP and leaves Nagle's algorithm on. MPI_Finalize sends a few
// small messages in a row; Nagle holds the later ones until the server acknowledges the first,
// and Linux delays that acknowledgement by its 40 ms minimum, so every MPI_Finalize waited
// ~40 ms for nothing. TCP_NODELAY on the rank's end sends each message at once; it changes no
// content and no order, only when segments leave.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <charconv>
#include <cstring>
#include <filesystem>
#include <string_view>
#include <system_error>

#include "qevolve/comm.hpp"

namespace qevolve::comm {
namespace {

/// "tcp4://127.0.0.1:PORT" or "tcp6://[::1]:PORT" (the part after the URI's ';').
std::optional<TcpEndpoint> parse_tcp_uri(std::string_view uri) {
  TcpEndpoint e;
  if (uri.starts_with("tcp4://")) {
    uri.remove_prefix(7);
  } else if (uri.starts_with("tcp6://")) {
    uri.remove_prefix(7);
    e.ipv6 = true;
  } else {
    return std::nullopt;
  }
  const auto colon = uri.rfind(':');
  if (colon == std::string_view::npos) return std::nullopt;
  std::string_view host = uri.substr(0, colon);
  if (e.ipv6) {
    if (host.size() < 2 || host.front() != '[' || host.back() != ']') return std::nullopt;
    host = host.substr(1, host.size() - 2);
  }
  const std::string_view port = uri.substr(colon + 1);
  const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), e.port);
  if (ec != std::errc{} || end != port.data() + port.size() || e.port <= 0 || e.port > 65535) return std::nullopt;
  e.address = std::string(host);
  return e;
}

/// True when `peer` (from getpeername) is `server`'s address and port.
bool same_endpoint(const sockaddr_storage& peer, const TcpEndpoint& server) {
  if (!server.ipv6 && peer.ss_family == AF_INET) {
    const auto& a = reinterpret_cast<const sockaddr_in&>(peer);
    in_addr want{};
    return inet_pton(AF_INET, server.address.c_str(), &want) == 1 && a.sin_addr.s_addr == want.s_addr &&
           ntohs(a.sin_port) == server.port;
  }
  if (server.ipv6 && peer.ss_family == AF_INET6) {
    const auto& a = reinterpret_cast<const sockaddr_in6&>(peer);
    in6_addr want{};
    return inet_pton(AF_INET6, server.address.c_str(), &want) == 1 &&
           std::memcmp(&a.sin6_addr, &want, sizeof want) == 0 && ntohs(a.sin6_port) == server.port;
  }
  return false;
}

}  // namespace

std::optional<TcpEndpoint> pmix_server_endpoint(const std::function<const char*(const char*)>& env) {
  // The newest protocol's variable first; every one names the same server.
  for (const char* name : {"PMIX_SERVER_URI41", "PMIX_SERVER_URI4", "PMIX_SERVER_URI3", "PMIX_SERVER_URI21",
                           "PMIX_SERVER_URI2"}) {
    const char* value = env(name);
    if (value == nullptr) continue;
    const std::string_view uri(value);
    const auto semicolon = uri.find(';');
    return parse_tcp_uri(semicolon == std::string_view::npos ? uri : uri.substr(semicolon + 1));
  }
  return std::nullopt;
}

int disable_nagle_towards(const TcpEndpoint& server) {
  int changed = 0;
  std::error_code ec;
  for (std::filesystem::directory_iterator it("/proc/self/fd", ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    int fd = -1;
    const auto [p, parse] = std::from_chars(name.data(), name.data() + name.size(), fd);
    if (parse != std::errc{} || p != name.data() + name.size()) continue;
    int type = 0;
    socklen_t type_len = sizeof type;
    if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &type_len) != 0 || type != SOCK_STREAM) continue;
    sockaddr_storage peer{};
    socklen_t peer_len = sizeof peer;
    if (getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &peer_len) != 0 || !same_endpoint(peer, server)) continue;
    const int one = 1;
    if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) == 0) ++changed;
  }
  return changed;
}

}  // namespace qevolve::comm
