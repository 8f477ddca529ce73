import pg from 'pg';

/** pg's message when `query_timeout` passed without an answer. */
const READ_TIMEOUT = 'Query read timeout';

type Query = (...args: unknown[]) => unknown;

/**
 * pg's Client, except that a query the server did not answer within `query_timeout` closes
 * its connection. pg answers the caller with an error but keeps the connection, with the
 * unanswered query still ahead of any later one: back in the pool, every query on it would
 * wait for the same silence (a failover's old connections never answer again, TCP
 * retransmits for ~15 minutes). Closed, the pool drops it and connects anew.
 * docs/adr/0151-database-timeouts-and-silent-connections.md.
 */
export class DeadlinePgClient extends pg.Client {}

const query = pg.Client.prototype.query as Query;
(DeadlinePgClient.prototype as unknown as { query: Query }).query = function (
  this: pg.Client,
  ...args: unknown[]
): unknown {
  const result = query.apply(this, args);
  if (result instanceof Promise) {
    result.catch((error: unknown) => {
      if (error instanceof Error && error.message === READ_TIMEOUT) closeConnection(this);
    });
  }
  return result;
};

function closeConnection(client: pg.Client): void {
  const connection = (client as unknown as { connection?: { stream?: { destroy(): void } } })
    .connection;
  connection?.stream?.destroy();
}
