/* Mesh files through assimp (see mesh_file.h). The file is read here, so
 * that its kind and size are checked before assimp sees it, and handed to
 * assimp from memory with its extension as the format hint. */
#define _POSIX_C_SOURCE 200809L /* open, fstat, read, O_CLOEXEC */
#include "geometry/shapes/mesh_file.h"

#include <assimp/cimport.h>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "framework/alloc.h"

/* Triangles with shared vertices, scene transforms applied, no points or
 * lines, and assimp's own validation of what it built. Normals, colours and
 * texture coordinates are removed first, so that vertices are joined by
 * position alone (an STL file repeats each corner with each face's normal). */
#define MESH_IMPORT_FLAGS                                                                \
  (aiProcess_RemoveComponent | aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | \
   aiProcess_PreTransformVertices | aiProcess_SortByPType | aiProcess_ValidateDataStructure)

/* What aiProcess_RemoveComponent removes. */
#define MESH_REMOVED_COMPONENTS                                                     \
  (aiComponent_NORMALS | aiComponent_TANGENTS_AND_BITANGENTS | aiComponent_COLORS | \
   aiComponent_TEXCOORDS | aiComponent_BONEWEIGHTS | aiComponent_ANIMATIONS |       \
   aiComponent_TEXTURES | aiComponent_LIGHTS | aiComponent_CAMERAS | aiComponent_MATERIALS)

void teal_mesh_release(teal_mesh *mesh) {
  if (!mesh) {
    return;
  }
  teal_free(mesh->vertices);
  teal_free(mesh->triangles);
  memset(mesh, 0, sizeof(*mesh));
}

/* The counts of what the scene holds: vertices of meshes with triangles and
 * their triangles (3-index faces). */
static int scene_counts(const struct aiScene *s, size_t *nv, size_t *nt) {
  *nv = 0;
  *nt = 0;
  for (unsigned m = 0; m < s->mNumMeshes; m++) {
    const struct aiMesh *mesh = s->mMeshes[m];
    if (!(mesh->mPrimitiveTypes & aiPrimitiveType_TRIANGLE)) {
      continue;
    }
    *nv += mesh->mNumVertices;
    for (unsigned f = 0; f < mesh->mNumFaces; f++) {
      *nt += mesh->mFaces[f].mNumIndices == 3;
    }
  }
  return *nv <= INT_MAX && *nt <= INT_MAX / 3;
}

/* Copies the scene's triangles into out (arrays allocated for the counts). */
static int copy_scene(const struct aiScene *s, double scale, teal_mesh *out, const char *src,
                      teal_error *err) {
  int v0 = 0, t = 0;
  for (unsigned m = 0; m < s->mNumMeshes; m++) {
    const struct aiMesh *mesh = s->mMeshes[m];
    if (!(mesh->mPrimitiveTypes & aiPrimitiveType_TRIANGLE)) {
      continue;
    }
    for (unsigned i = 0; i < mesh->mNumVertices; i++) {
      const struct aiVector3D *p = &mesh->mVertices[i];
      teal_vec3 v = teal_vec3_make(scale * p->x, scale * p->y, scale * p->z);
      if (!teal_vec3_is_finite(v)) {
        return teal_error_set(err, TEAL_ENONFINITE, "mesh: %s: vertex %d is not finite", src,
                              v0 + (int)i);
      }
      out->vertices[v0 + (int)i] = v;
    }
    for (unsigned f = 0; f < mesh->mNumFaces; f++) {
      const struct aiFace *face = &mesh->mFaces[f];
      if (face->mNumIndices != 3) {
        continue;
      }
      for (int k = 0; k < 3; k++) {
        out->triangles[3 * t + k] = v0 + (int)face->mIndices[k];
      }
      t++;
    }
    v0 += (int)mesh->mNumVertices;
  }
  return TEAL_OK;
}

/* Fills out from an imported scene. */
static int from_scene(const struct aiScene *s, double scale, teal_mesh *out, const char *src,
                      teal_error *err) {
  size_t nv, nt;
  if (!scene_counts(s, &nv, &nt)) {
    return teal_error_set(err, TEAL_ESIZE, "mesh: %s: too many vertices or triangles", src);
  }
  if (nt == 0) {
    return teal_error_set(err, TEAL_EPARSE, "mesh: %s: holds no triangle", src);
  }
  out->vertices = teal_calloc(nv, sizeof(teal_vec3));
  out->triangles = teal_calloc(3 * nt, sizeof(int));
  if (!out->vertices || !out->triangles) {
    return teal_error_set(err, TEAL_ENOMEM, "mesh: %s: out of memory", src);
  }
  out->num_vertices = (int)nv;
  out->num_triangles = (int)nt;
  return copy_scene(s, scale, out, src, err);
}

static int check_args(const void *in, double scale, teal_mesh *out, teal_error *err) {
  if (out) {
    memset(out, 0, sizeof(*out));
  }
  if (!in || !out) {
    return teal_error_set(err, TEAL_EINVAL, "mesh: %s is NULL", !out ? "out" : "the input");
  }
  if (!(isfinite(scale) && scale > 0.0)) {
    return teal_error_set(err, TEAL_EINVAL, "mesh: scale %g must be finite and > 0", scale);
  }
  return TEAL_OK;
}

/* Imports the bytes with assimp; src names them in messages. */
static int import(const void *data, size_t size, const char *format, double scale, teal_mesh *out,
                  const char *src, teal_error *err) {
  if (size > TEAL_MESH_MAX_BYTES) {
    return teal_error_set(err, TEAL_ESIZE, "mesh: %s: %zu bytes, more than the %zu accepted", src,
                          size, TEAL_MESH_MAX_BYTES);
  }
  if (size == 0) {
    return teal_error_set(err, TEAL_EPARSE, "mesh: %s: empty", src);
  }
  struct aiPropertyStore *props = aiCreatePropertyStore();
  if (!props) {
    return teal_error_set(err, TEAL_ENOMEM, "mesh: %s: out of memory", src);
  }
  aiSetImportPropertyInteger(props, AI_CONFIG_PP_RVC_FLAGS, (int)MESH_REMOVED_COMPONENTS);
  const struct aiScene *s = aiImportFileFromMemoryWithProperties(
      data, (unsigned)size, MESH_IMPORT_FLAGS, format ? format : "", props);
  aiReleasePropertyStore(props);
  if (!s) {
    return teal_error_set(err, TEAL_EPARSE, "mesh: %s: %s", src, aiGetErrorString());
  }
  int rc = from_scene(s, scale, out, src, err);
  aiReleaseImport(s);
  if (rc != TEAL_OK) {
    teal_mesh_release(out);
  }
  return rc;
}

int teal_mesh_load_memory(const void *data, size_t size, const char *format, double scale,
                          teal_mesh *out, teal_error *err) {
  int rc = check_args(data, scale, out, err);
  return rc != TEAL_OK ? rc : import(data, size, format, scale, out, "<memory>", err);
}

/* Reads the regular file at path (at most TEAL_MESH_MAX_BYTES) into *data. */
static int read_file(const char *path, unsigned char **data, size_t *size, teal_error *err) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return teal_error_set(err, TEAL_EIO, "mesh: %s: cannot open: %s", path, strerror(errno));
  }
  struct stat st;
  int rc = TEAL_OK;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    rc = teal_error_set(err, TEAL_EIO, "mesh: %s: not a regular file", path);
  } else if ((unsigned long long)st.st_size > TEAL_MESH_MAX_BYTES) {
    rc = teal_error_set(err, TEAL_ESIZE, "mesh: %s: %lld bytes, more than the %zu accepted", path,
                        (long long)st.st_size, TEAL_MESH_MAX_BYTES);
  } else if (!(*data = teal_alloc((size_t)st.st_size + 1))) {
    rc = teal_error_set(err, TEAL_ENOMEM, "mesh: %s: out of memory", path);
  }
  size_t got = 0;
  while (rc == TEAL_OK && got < (size_t)st.st_size) {
    ssize_t n = read(fd, *data + got, (size_t)st.st_size - got);
    if (n <= 0) {
      rc = teal_error_set(err, TEAL_EIO, "mesh: %s: read failed", path);
    }
    got += n > 0 ? (size_t)n : 0;
  }
  close(fd);
  *size = got;
  return rc;
}

/* The file's extension, lower case, into hint (empty when none or long). */
static void extension_hint(const char *path, char *hint, size_t cap) {
  const char *dot = strrchr(path, '.');
  const char *slash = strrchr(path, '/');
  hint[0] = '\0';
  if (!dot || (slash && slash > dot) || strlen(dot + 1) >= cap) {
    return;
  }
  size_t i = 0;
  for (const char *c = dot + 1; *c; c++) {
    hint[i++] = (char)(*c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c);
  }
  hint[i] = '\0';
}

int teal_mesh_load_file(const char *path, double scale, teal_mesh *out, teal_error *err) {
  int rc = check_args(path, scale, out, err);
  if (rc != TEAL_OK) {
    return rc;
  }
  unsigned char *data = NULL;
  size_t size = 0;
  rc = read_file(path, &data, &size, err);
  if (rc == TEAL_OK) {
    char hint[16];
    extension_hint(path, hint, sizeof(hint));
    rc = import(data, size, hint, scale, out, path, err);
  }
  teal_free(data);
  return rc;
}
