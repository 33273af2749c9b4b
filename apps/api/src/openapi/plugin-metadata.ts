import { SwaggerModule } from '@nestjs/swagger';
import { SignUpDto } from '@layout/contracts';
// Written by `npm run openapi:metadata` (postinstall, prebuild, pretest); not committed.
import pluginMetadata from '../generated/openapi-metadata';

/** Where the swagger CLI plugin leaves a class's metadata (@nestjs/swagger's METADATA_FACTORY_NAME). */
const PLUGIN_METADATA_FACTORY = '_OPENAPI_METADATA_FACTORY';

let loading: Promise<void> | undefined;

/**
 * Gives the DTOs and controllers the swagger CLI plugin's metadata (members, types, required,
 * comments): `nest build` compiles it into the classes, but Jest's transpiler does not run the
 * plugin, so there it comes from the generated `openapi-metadata.ts` (NestJS's documented
 * `SwaggerModule.loadPluginMetadata`). When the compiler already did the job, the file is not
 * applied on top: a build is always current, while the file could be older than the sources.
 */
export function ensurePluginMetadata(): Promise<void> {
  loading ??= Object.hasOwn(SignUpDto, PLUGIN_METADATA_FACTORY)
    ? Promise.resolve()
    : SwaggerModule.loadPluginMetadata(pluginMetadata);
  return loading;
}
