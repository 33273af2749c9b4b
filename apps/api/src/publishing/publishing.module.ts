import { Module } from '@nestjs/common';
import { LayoutModule } from '../layout/layout.module';
import { ProjectDocuments } from './project-documents';
import { RenderController } from './render.controller';
import { RenderedPages } from './rendered-pages';

/** A project sent out: rendered as a page, and shown behind share links. */
@Module({
  imports: [LayoutModule],
  controllers: [RenderController],
  providers: [ProjectDocuments, RenderedPages],
})
export class PublishingModule {}
