# Multi-stage build: a static binary on a small runtime image, running as a
# non-root user, friendly to a read-only root filesystem (it writes nothing
# outside the mounted workspace; audit goes to stderr unless configured).
#
#   docker build -t mcp-shell-server .
#   docker run --rm -i --init --read-only --tmpfs /tmp --user "$(id -u):$(id -g)" -e HOME=/tmp \
#     -v "$PWD:/workspace" --env-file deploy/example.env mcp-shell-server
#
# --init is optional: as PID 1 the server reaps every orphan of its calls
# itself (and kills each call's descendants when the call ends); under an
# init it does the same as a child subreaper. Its start-up line names the
# mechanism ("process lifetime mechanism=subreaper" with Docker's read-only
# cgroupfs; "cgroup" where it may create cgroups beneath its own).
# Both base images are pinned to exact releases (Go 1.26.8 on bookworm; Debian
# 12.12, bookworm, slim). To pin by digest as well (do it where a registry is
# reachable, and update both FROM lines together):
#   docker buildx imagetools inspect golang:1.26.8-bookworm --format '{{.Manifest.Digest}}'
#   docker buildx imagetools inspect debian:12.12-slim --format '{{.Manifest.Digest}}'
#   then write FROM golang:1.26.8-bookworm@sha256:<digest> and FROM debian:12.12-slim@sha256:<digest>
FROM golang:1.26.8-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# --version and serverInfo.version: docker build --build-arg VERSION="$(git describe --tags --always --dirty)"
ARG VERSION=devel
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w -X github.com/seed-b63acb1b/mcp-shell-server/cli.version=${VERSION}" -o /out/mcp-shell-server ./cmd/mcp-shell-server

# The programs the server may run must exist in the runtime image: Debian
# slim with git, tar and the usual text tools; add what your allowlist needs.
FROM debian:12.12-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends git ca-certificates mawk file \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --uid 10001 --create-home --home-dir /home/mcp --shell /usr/sbin/nologin mcp \
 && mkdir /workspace && chown mcp:mcp /workspace
COPY --from=build /out/mcp-shell-server /usr/local/bin/mcp-shell-server
USER 10001:10001
WORKDIR /workspace
ENV MCP_SHELL_ALLOWED_DIRECTORIES=/workspace
# Inside a container the loopback address is unreachable from outside it:
# with MCP_SHELL_TRANSPORT=http the server listens on every address of the
# container (a bearer token is required whatever the address).
ENV MCP_SHELL_HTTP_ADDR=0.0.0.0:8080
EXPOSE 8080
# With MCP_SHELL_TRANSPORT=http, probe GET /healthz from the orchestrator
# (the slim image has no HTTP client for a HEALTHCHECK of its own).
# The server is PID 1 here unless the container runs with --init; both are
# fine (see the top of this file).
ENTRYPOINT ["/usr/local/bin/mcp-shell-server"]
