# Sourced by scripts/cluster: the HAProxy configuration it writes in front of the replicas (round
# robin, /readyz checks, a retry elsewhere for a refused or failed connection, HAProxy's own errors
# as JSON-RPC errors with the request's id). Uses the caller's $dir.

# An http-error rule: status $1 answered with a JSON-RPC error (-32603, data.code $2, retryable),
# with the extra "hdr" arguments $4 names.
rpc_error() {
  printf '  http-error status %s content-type application/json hdr Retry-After 1%s lf-string "{\\"jsonrpc\\":\\"2.0\\",\\"id\\":%%[var(txn.rpcid)],\\"error\\":{\\"code\\":-32603,\\"message\\":\\"%s\\",\\"data\\":{\\"code\\":\\"%s\\",\\"retryable\\":true}}}"\n' "$1" "${4:-}" "$3" "$2"
}

write_haproxy_cfg() {
  local front="$1" stats="$2"; shift 2
  cat > "$dir/haproxy.cfg" <<EOF
# Written by scripts/cluster.
global
  daemon
  pidfile $dir/haproxy.pid
  maxconn 4096

defaults
  mode http
  timeout connect 2s
  # Event streams stay open for a call's length; the replicas send keep-alive comments every 15 s.
  timeout client 5m
  timeout server 5m
  timeout http-request 30s
  # A request refused by a draining replica (503) or sent to one that is gone is tried on another:
  # the request is buffered so that it can be sent again.
  option http-buffer-request
  retries 2
  option redispatch 1
  retry-on conn-failure 503
  # A new connection to the replica for each request: a request is then never written onto an
  # idle connection to a replica that has just died (HAProxy would close the client's connection
  # without an answer); a dead replica refuses the connect instead, and the request goes to another.
  option http-server-close

frontend mcp
  bind 127.0.0.1:$front
  # When no replica answers, HAProxy's own 502/503/504 carry a JSON-RPC error a client can read,
  # with the request's id taken from the buffered body (an integer as is, a string quoted; null
  # when there is none or the body is not JSON).
  http-request set-var(txn.rpcraw) req.body,json_query('\$.id')
  http-request set-var(txn.rpcid) str(null)
  http-request set-var(txn.rpcid) var(txn.rpcraw) if { var(txn.rpcraw) -m reg ^-?[0-9]+\$ }
  http-request set-var-fmt(txn.rpcid) "\"%[var(txn.rpcraw),json(utf8s)]\"" if { var(txn.rpcraw) -m found } !{ var(txn.rpcraw) -m reg ^-?[0-9]+\$ }
  # After a replica's abort (502) or timeout (504) HAProxy closes the client's connection, though
  # its error does not say so: a client would write its retry onto that closing connection and get
  # no answer at all. "Connection: close" makes the client open a new one.
$(rpc_error 502 UPSTREAM_ERROR "The gateway replica handling this request stopped before it answered. The request may or may not have taken effect; it may be sent again." " hdr Connection close")
$(rpc_error 503 UPSTREAM_ERROR "No gateway replica is available right now. The request was not processed; send it again in a moment.")
$(rpc_error 504 TIMEOUT "The gateway replica handling this request did not answer in time. The request may or may not have taken effect; it may be sent again." " hdr Connection close")
  # Which replica answered (its server name here), for an operator reading a client's log.
  http-after-response set-header X-Warden-Replica %s
  default_backend replicas

backend replicas
  balance roundrobin
  option httpchk
  http-check send meth GET uri /readyz ver HTTP/1.1 hdr Host 127.0.0.1
  http-check expect status 200
  # /readyz probes the shared stores (PostgreSQL may take 2-3 s on a loaded host); without this
  # HAProxy would give the whole check only "inter" (1 s) and mark a healthy replica down.
  timeout check 4s
  default-server inter 1s fall 2 rise 1
EOF
  local i=1
  for port in "$@"; do
    echo "  server replica-$i 127.0.0.1:$port check" >> "$dir/haproxy.cfg"
    i=$((i + 1))
  done
  cat >> "$dir/haproxy.cfg" <<EOF

listen stats
  bind 127.0.0.1:$stats
  stats enable
  stats uri /stats
EOF
}
