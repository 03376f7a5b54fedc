// PROVISIONAL (helper F): replaced by helper L's "lite infra" context on merge.
export type LiteContext = {
  d: Document;
  t: (key: string, vars?: Record<string, string>) => string;
  config: Record<string, unknown>;
  kit: Record<string, unknown>;
};
