// Who a TLS client certificate names, written once for both sides: the tier checks it,
// scripts/dev-ca.sh and operators' CAs put it in the certificate as a SAN URI.
//   sfdb://node/<uuid>       a node's daemons: their x-sfdb-caller-node must be <uuid>
//   sfdb://replica/<id>      a tier replica (peer pokes; it also serves with this cert)
//   sfdb://operator/<name>   an operator's tools (sf-ctl)

export type Identity = { kind: 'node'; uuid: string } | { kind: 'replica'; id: string } | { kind: 'operator'; name: string };

/** A lower-case uuid: how objects, nodes and callers are named, on every side. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const PREFIX = 'sfdb://';

export function identityUri(identity: Identity): string {
  switch (identity.kind) {
    case 'node':
      return `${PREFIX}node/${identity.uuid}`;
    case 'replica':
      return `${PREFIX}replica/${identity.id}`;
    case 'operator':
      return `${PREFIX}operator/${identity.name}`;
  }
}

/** The identity a SAN URI names, or undefined for any other URI. */
export function parseIdentityUri(uri: string): Identity | undefined {
  const m = /^sfdb:\/\/(node|replica|operator)\/([A-Za-z0-9][A-Za-z0-9_.:-]{0,127})$/.exec(uri);
  if (!m) return undefined;
  const [, kind, name] = m as unknown as [string, 'node' | 'replica' | 'operator', string];
  if (kind === 'node') return UUID_PATTERN.test(name) ? { kind, uuid: name } : undefined;
  return kind === 'replica' ? { kind, id: name } : { kind, name };
}

/**
 * The sfdb identities of a certificate's subjectAltName as Node's TLS reports it
 * ('URI:sfdb://node/…, DNS:localhost, IP Address:127.0.0.1'). A certificate that names
 * more than one is refused by the caller (ambiguous), as is one that names none.
 */
export function identitiesOf(subjectAltName: string | undefined): Identity[] {
  if (!subjectAltName) return [];
  const out: Identity[] = [];
  for (const part of subjectAltName.split(',')) {
    const entry = part.trim();
    if (!entry.startsWith('URI:')) continue;
    const identity = parseIdentityUri(entry.slice(4));
    if (identity) out.push(identity);
  }
  return out;
}
