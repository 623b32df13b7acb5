/* The part of Teal's C API the Python package binds (cffi cdef syntax:
 * declarations only, no macros). API mode checks every line against the
 * real headers when the extension is compiled. */
typedef struct teal_error { int code; char message[512]; } teal_error;
const char *teal_strerror(int code);
unsigned long teal_alloc_count(void);

typedef struct teal_system teal_system;
typedef struct teal_context teal_context;
typedef struct teal_input_port teal_input_port;
typedef struct teal_output_port teal_output_port;
typedef struct teal_builder teal_builder;
typedef struct teal_simulator teal_simulator;
typedef struct teal_plant teal_plant;
typedef struct teal_scene_graph teal_scene_graph;

/* systems and ports */
void teal_system_free(teal_system *sys);
const char *teal_system_name(const teal_system *sys);
const teal_error *teal_system_error(const teal_system *sys);
int teal_system_num_input_ports(const teal_system *sys);
int teal_system_num_output_ports(const teal_system *sys);
const teal_input_port *teal_system_input_port(const teal_system *sys, int i);
const teal_output_port *teal_system_output_port(const teal_system *sys, int i);
const teal_input_port *teal_system_input_port_by_name(const teal_system *sys, const char *name);
const teal_output_port *teal_system_output_port_by_name(const teal_system *sys, const char *name);
const char *teal_input_port_name(const teal_input_port *port);
int teal_input_port_index(const teal_input_port *port);
int teal_input_port_size(const teal_input_port *port);
const char *teal_output_port_name(const teal_output_port *port);
int teal_output_port_index(const teal_output_port *port);
int teal_output_port_size(const teal_output_port *port);
int teal_system_num_continuous_states(const teal_system *sys, int *nq, int *nv, int *nz);
int teal_system_num_discrete_states(const teal_system *sys);

/* builder */
teal_builder *teal_builder_new(const char *name);
void teal_builder_free(teal_builder *b);
const teal_error *teal_builder_error(const teal_builder *b);
teal_system *teal_builder_add(teal_builder *b, teal_system *sys);
int teal_builder_connect(teal_builder *b, const teal_output_port *src, const teal_input_port *dst);
int teal_builder_export_input(teal_builder *b, const teal_input_port *dst, const char *name);
int teal_builder_export_output(teal_builder *b, const teal_output_port *src, const char *name);
teal_system *teal_builder_build(teal_builder *b, teal_error *err);

/* contexts */
teal_context *teal_context_new(const teal_system *sys, teal_error *err);
void teal_context_free(teal_context *ctx);
int teal_context_set_to_defaults(teal_context *ctx);
const teal_system *teal_context_system(const teal_context *ctx);
const teal_error *teal_context_error(const teal_context *ctx);
int teal_context_is_root(const teal_context *ctx);
teal_context *teal_context_subcontext_mut(teal_context *ctx, const teal_system *sub);
double teal_context_time(const teal_context *ctx);
int teal_context_set_time(teal_context *ctx, double t);
int teal_context_set_continuous_state(teal_context *ctx, const double *x, int n);
int teal_context_get_continuous_state(const teal_context *ctx, double *x, int n);
const double *teal_context_discrete_state(const teal_context *ctx);
int teal_context_fix_input(teal_context *ctx, int port, const double *value, int n);
int teal_eval_vector_output(const teal_system *sys, const teal_context *ctx, int port,
                            const double **value);

/* simulator */
typedef enum teal_sim_outcome {
  TEAL_SIM_REACHED_END = 0, TEAL_SIM_TERMINATED = 1, TEAL_SIM_FAILED = 2
} teal_sim_outcome;
typedef struct teal_sim_status {
  teal_sim_outcome outcome; int code; double time; char message[512];
} teal_sim_status;
teal_simulator *teal_simulator_new(const teal_system *sys, teal_context *ctx, teal_error *err);
void teal_simulator_free(teal_simulator *sim);
teal_context *teal_simulator_context(teal_simulator *sim);
const teal_error *teal_simulator_error(const teal_simulator *sim);
int teal_simulator_initialize(teal_simulator *sim, teal_sim_status *status);
int teal_simulator_advance_to(teal_simulator *sim, double t_final, teal_sim_status *status);
int teal_simulator_set_target_realtime_rate(teal_simulator *sim, double rate);

/* logging */
typedef struct teal_vector_log {
  int size; int count; int capacity; double *times; double *data;
} teal_vector_log;
teal_system *teal_vector_log_sink_new(const char *name, int n, double publish_period,
                                      teal_error *err);
const teal_vector_log *teal_vector_log_sink_log(const teal_system *sys, const teal_context *ctx);
int teal_vector_log_sink_clear(const teal_system *sys, teal_context *ctx);

/* linear systems, linearization, LQR */
typedef struct teal_linear_system_matrices {
  int nx, nu, ny; double time_period;
  const double *A; const double *B; const double *f0;
  const double *C; const double *D; const double *y0;
} teal_linear_system_matrices;
typedef struct teal_linearize_options {
  int input_port; int output_port; double eps; int use_analytic;
  double equilibrium_tolerance; ...;
} teal_linearize_options;
void teal_linearize_options_init(teal_linearize_options *opts);
teal_system *teal_linearize(const teal_system *sys, const teal_context *ctx,
                            const teal_linearize_options *opts, teal_error *err);
int teal_linear_system_get(const teal_system *sys, teal_linear_system_matrices *out);
int teal_is_linear_system(const teal_system *sys);
teal_system *teal_linear_system_new(const char *name, const double *A, const double *B,
                                    const double *C, const double *D, int nx, int nu, int ny,
                                    double time_period, teal_error *err);
int teal_lqr(const double *A, const double *B, const double *Q, const double *R, const double *N,
             int n, int m, int discrete, double *K, double *S, teal_error *err);
teal_system *teal_lqr_controller_new(const char *name, const teal_system *sys,
                                     const teal_context *ctx, int input_port, const double *Q,
                                     const double *R, const double *N, double *K, double *S,
                                     teal_error *err);

/* primitives and controllers */
teal_system *teal_constant_vector_source_new(const char *name, const double *value, int n,
                                             teal_error *err);
teal_system *teal_gain_new(const char *name, double k, int n, teal_error *err);
teal_system *teal_adder_new(const char *name, int num_inputs, int n, teal_error *err);
teal_system *teal_saturation_new(const char *name, const double *min, const double *max, int n,
                                 teal_error *err);
teal_system *teal_pid_new(const char *name, const double *kp, const double *ki, const double *kd,
                          int n, teal_error *err);
teal_system *teal_zero_order_hold_new(const char *name, double period, double offset, int n,
                                      teal_error *err);

/* multibody */
teal_plant *teal_plant_new(double time_step, teal_error *err);
void teal_plant_free(teal_plant *plant);
const teal_error *teal_plant_error(const teal_plant *plant);
int teal_plant_finalize(teal_plant *plant);
int teal_plant_is_finalized(const teal_plant *plant);
double teal_plant_time_step(const teal_plant *plant);
teal_system *teal_plant_system(teal_plant *plant);
int teal_plant_nq(const teal_plant *plant);
int teal_plant_nv(const teal_plant *plant);
int teal_plant_num_actuators(const teal_plant *plant);
int teal_plant_actuation_input_port(const teal_plant *plant);
int teal_plant_state_output_port(const teal_plant *plant);
int teal_plant_get_positions(const teal_plant *plant, const teal_context *ctx, double *q, int n);
int teal_plant_set_positions(const teal_plant *plant, teal_context *ctx, const double *q, int n);
int teal_plant_get_velocities(const teal_plant *plant, const teal_context *ctx, double *v, int n);
int teal_plant_set_velocities(const teal_plant *plant, teal_context *ctx, const double *v, int n);
int teal_plant_get_state(const teal_plant *plant, const teal_context *ctx, double *x, int n);
int teal_plant_set_state(const teal_plant *plant, teal_context *ctx, const double *x, int n);
int teal_urdf_load_file(teal_plant *plant, const char *path, const char *instance_name,
                        teal_error *err);
int teal_urdf_load_string(teal_plant *plant, const char *xml, const char *instance_name,
                          teal_error *err);
teal_scene_graph *teal_add_plant_and_scene_graph(teal_builder *builder, teal_plant *plant,
                                                 teal_error *err);

/* leaf systems written in Python: the C callbacks are the extern "Python"
 * functions below (teal/leaf.py defines them with ffi.def_extern) */
typedef int teal_ticket;
typedef struct teal_continuous_view { double *q; double *v; double *z; } teal_continuous_view;
typedef int (*teal_vector_calc_fn)(const teal_system *sys, const teal_context *ctx, double *out,
                                   void *user);
typedef int (*teal_derivatives_fn)(const teal_system *sys, const teal_context *ctx,
                                   teal_continuous_view *xcdot, void *user);
typedef int (*teal_discrete_update_fn)(const teal_system *sys, const teal_context *ctx,
                                       double *xd_next, void *user);
teal_system *teal_leaf_new(const char *name, void *user, void (*user_free)(void *));
int teal_leaf_declare_vector_input(teal_system *sys, const char *name, int size);
int teal_leaf_declare_vector_output(teal_system *sys, const char *name, int size,
                                    teal_vector_calc_fn calc, void *user,
                                    const teal_ticket *prereqs, int nprereqs);
int teal_leaf_declare_continuous_state(teal_system *sys, int nq, int nv, int nz, const double *x0);
int teal_leaf_declare_discrete_state(teal_system *sys, int size, const double *x0);
int teal_leaf_set_time_derivatives(teal_system *sys, teal_derivatives_fn fn, void *user);
int teal_leaf_declare_periodic_discrete_update(teal_system *sys, double period, double offset,
                                               teal_discrete_update_fn fn, void *user);
int teal_leaf_finalize(teal_system *sys);
int teal_eval_vector_input(const teal_system *sys, const teal_context *ctx, int port,
                           const double **value);
int teal_context_report_error(const teal_context *ctx, int code, const char *fmt, ...);
extern "Python" int teal_py_vector_calc(const teal_system *, const teal_context *, double *,
                                        void *);
extern "Python" int teal_py_derivatives(const teal_system *, const teal_context *,
                                        teal_continuous_view *, void *);
extern "Python" int teal_py_discrete_update(const teal_system *, const teal_context *, double *,
                                            void *);
static const int TEAL_TICKET_NOTHING;
static const int TEAL_TICKET_TIME;
static const int TEAL_TICKET_XC;
static const int TEAL_TICKET_XD;
static const int TEAL_TICKET_ALL_STATE;
static const int TEAL_TICKET_ALL_PARAMETERS;
static const int TEAL_TICKET_ALL_INPUTS;
static const int TEAL_TICKET_ALL_SOURCES;
static const int TEAL_TICKET_INPUT_BASE;

/* contact results and model-based controllers */
typedef struct teal_vec3 { double v[3]; } teal_vec3;
typedef struct teal_contact_info {
  int body_A, body_B; int geometry_A, geometry_B;
  teal_vec3 p_WC; teal_vec3 nhat_BA_W; double depth; double separation_speed;
  double slip_speed; teal_vec3 f_Bc_W;
} teal_contact_info;
typedef struct teal_contact_results { int n, cap; teal_contact_info *c; } teal_contact_results;
int teal_plant_contact_results_output_port(const teal_plant *plant);
int teal_plant_eval_contact_results(const teal_plant *plant, const teal_context *ctx,
                                    const teal_contact_results **results);
teal_system *teal_inverse_dynamics_controller_new(const char *name, const teal_plant *plant,
                                                  const double *kp, const double *ki,
                                                  const double *kd, int n,
                                                  int has_reference_acceleration,
                                                  teal_error *err);
int teal_plant_applied_generalized_force_input_port(const teal_plant *plant);
