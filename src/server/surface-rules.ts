import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { surfaceManifestFile, surfaceManifestSchema } from '../http/surface-manifest.ts';
import { compileSurfaceRules, type SurfaceRules } from '../http/surface-rules.ts';

// The build's rules manifest (dist/_surface.json), read and validated when the server starts.

export async function loadSurfaceRules(distDir: string): Promise<SurfaceRules> {
  const file = join(distDir, surfaceManifestFile);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new Error(`${file} is missing: build the site first (npm run build).`);
  }
  const parsed = surfaceManifestSchema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`${file} is not a valid rules manifest: ${z.prettifyError(parsed.error)}`);
  return compileSurfaceRules(parsed.data);
}
