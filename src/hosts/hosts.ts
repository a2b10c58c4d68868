import type { HostAdapter } from './host-adapter.ts';
import { apache } from './apache.ts';
import { caddy } from './caddy.ts';
import { cloudflare } from './cloudflare.ts';
import { cloudfront } from './cloudfront.ts';
import { netlify } from './netlify.ts';
import { nginx } from './nginx.ts';
import { serve } from './serve.ts';
import { vercel } from './vercel.ts';

/** Every host `npm run emit` knows, in the order --help lists them. */
export const HOSTS: HostAdapter[] = [nginx, caddy, apache, cloudflare, cloudfront, serve, netlify, vercel];

export function findHost(name: string): HostAdapter | undefined {
  return HOSTS.find((host) => host.name === name);
}

/** Names of the configuration files that `npm run emit` may put in a built folder, beside the build. */
export function filesPublishedWithSite(): string[] {
  return HOSTS.filter((host) => host.publishedWithSite).flatMap((host) => host.files);
}
