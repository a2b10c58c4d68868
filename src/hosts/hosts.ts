import type { HostAdapter } from './host-adapter.ts';
import { apache } from './apache/apache.ts';
import { caddy } from './caddy/caddy.ts';
import { cloudflare } from './cloudflare/cloudflare.ts';
import { cloudfront } from './cloudfront/cloudfront.ts';
import { netlify } from './netlify/netlify.ts';
import { netlifyEdge } from './netlify-edge/netlify-edge.ts';
import { nginx } from './nginx/nginx.ts';
import { serve } from './serve/serve.ts';
import { vercel } from './vercel/vercel.ts';
import { vercelEdge } from './vercel-edge/vercel-edge.ts';

/** Every host `npm run emit` knows, in the order --help lists them. */
export const HOSTS: HostAdapter[] = [nginx, caddy, apache, cloudflare, cloudfront, serve, netlify, netlifyEdge, vercel, vercelEdge];

export function findHost(name: string): HostAdapter | undefined {
  return HOSTS.find((host) => host.name === name);
}
