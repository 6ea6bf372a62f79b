# Sourced by compare.sh and profile.sh: serves a 1 KiB file from a keep-alive nginx on CPU 0.
# start_small_nginx WORK  - sets NGINX_PID and URL (http://127.0.0.1:PORT/1k.bin) and waits until it answers.
start_small_nginx() {
    local work="$1" port
    mkdir -p "$work/www"
    head -c 1024 /dev/urandom >"$work/www/1k.bin"
    chmod -R a+rX "$work/www"
    port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    cat >"$work/nginx.conf" <<EOF
worker_processes 1;
pid $work/nginx.pid;
error_log $work/error.log warn;
events { worker_connections 1024; }
http {
    access_log off; sendfile on; tcp_nopush on; keepalive_timeout 65; keepalive_requests 1000000;
    default_type application/octet-stream;
    server { listen 127.0.0.1:$port; root $work/www; }
}
EOF
    taskset -c 0 /usr/sbin/nginx -p "$work" -c "$work/nginx.conf" -g 'daemon off;' &
    NGINX_PID=$!
    URL="http://127.0.0.1:$port/1k.bin"
    for _ in $(seq 1 50); do curl -sf -o /dev/null "$URL" && break; sleep 0.1; done
}
