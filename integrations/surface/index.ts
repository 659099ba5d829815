import type { AstroIntegration } from 'astro';

export default function crucibleSurface(): AstroIntegration {
  return { name: 'crucible-surface', hooks: {} };
}
