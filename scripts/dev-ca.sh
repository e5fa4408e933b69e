#!/usr/bin/env bash
# A development CA and certificates for sf-database's mTLS, made with openssl. Not for
# production keys management: the CA key sits in DIR unencrypted.
#
#   scripts/dev-ca.sh DIR ca                      the CA (ca.crt, ca.key), once
#   scripts/dev-ca.sh DIR replica ID [HOST…]      a replica: server and client use,
#                                                 SAN URI sfdb://replica/ID, DNS localhost,
#                                                 IP 127.0.0.1 and ::1, plus each HOST
#   scripts/dev-ca.sh DIR node UUID               a node's daemons: client use, SAN URI sfdb://node/UUID
#   scripts/dev-ca.sh DIR operator NAME           an operator (sf-ctl): SAN URI sfdb://operator/NAME
#
# Each certificate is DIR/<kind>-<name>.crt with its key DIR/<kind>-<name>.key (mode 0600).
# EXPIRED=1 makes one that expired in 2020 (for tests of refusal).
set -euo pipefail

usage() {
  sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

[ $# -ge 2 ] || usage
dir=$1
kind=$2
shift 2
mkdir -p "$dir"
umask 077

if [ "$kind" = ca ]; then
  [ -e "$dir/ca.key" ] && { echo "dev-ca: $dir/ca.key exists; not replacing the CA" >&2; exit 1; }
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 3650 \
    -subj "/CN=sf-database development CA" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
    -keyout "$dir/ca.key" -out "$dir/ca.crt" 2>/dev/null
  echo "$dir/ca.crt"
  exit 0
fi

[ -e "$dir/ca.key" ] || { echo "dev-ca: no CA in $dir: run \`$0 $dir ca\` first" >&2; exit 1; }
[ $# -ge 1 ] || usage
name=$1
shift
case "$kind" in
  replica)
    san="URI:sfdb://replica/$name,DNS:localhost,IP:127.0.0.1,IP:::1"
    for host in "$@"; do
      if [[ $host =~ ^[0-9.]+$ || $host == *:* ]]; then san="$san,IP:$host"; else san="$san,DNS:$host"; fi
    done
    usage_ext="serverAuth,clientAuth"
    ;;
  node) san="URI:sfdb://node/$name"; usage_ext="clientAuth" ;;
  operator) san="URI:sfdb://operator/$name"; usage_ext="clientAuth" ;;
  *) usage ;;
esac

out="$dir/$kind-$name"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=$kind $name" \
  -keyout "$out.key" -out "$work/req.csr" 2>/dev/null
cat > "$work/ext.cnf" <<EOF
basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=$usage_ext
subjectAltName=$san
EOF

if [ "${EXPIRED:-0}" = 1 ]; then
  # `openssl ca` is the one 3.0 command that takes explicit dates.
  mkdir -p "$work/db"
  : > "$work/db/index.txt"
  cat > "$work/ca.cnf" <<EOF
[ca]
default_ca = dev
[dev]
database = $work/db/index.txt
new_certs_dir = $work/db
certificate = $dir/ca.crt
private_key = $dir/ca.key
default_md = sha256
policy = any
rand_serial = yes
copy_extensions = none
[any]
commonName = supplied
EOF
  openssl ca -batch -notext -config "$work/ca.cnf" -extfile "$work/ext.cnf" \
    -startdate 20200101000000Z -enddate 20200102000000Z -in "$work/req.csr" -out "$out.crt" 2>/dev/null
else
  openssl x509 -req -in "$work/req.csr" -CA "$dir/ca.crt" -CAkey "$dir/ca.key" -CAcreateserial \
    -days 825 -sha256 -extfile "$work/ext.cnf" -out "$out.crt" 2>/dev/null
fi
echo "$out.crt"
