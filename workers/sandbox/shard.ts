/**
 * Which of `count` shards a key (a payment reference, a transaction ref, a username) lives
 * in: FNV-1a, so every Worker isolate and every test picks the same one. The sandboxes shard
 * their state this way because one Durable Object for every player's payments or transfers
 * is a queue no real bank or provider has (decision 024).
 */
export function shardOf(key: string, count: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193) >>> 0;
  return hash % count;
}
