module @jit_fn attributes {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<32xf32>, %arg1: tensor<16x32xf32>, %arg2: tensor<32xf32>, %arg3: tensor<32x32xf32>, %arg4: tensor<8xf32>, %arg5: tensor<32x8xf32>, %arg6: tensor<?x16xf32>) -> (tensor<?x8xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<32> : tensor<i32>
    %c_1 = stablehlo.constant dense<-1> : tensor<i32>
    %c_2 = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.get_dimension_size %arg6, dim = 0 : (tensor<?x16xf32>) -> tensor<i32>
    %1 = stablehlo.compare GE, %0, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%1, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 'b'. Using the following polymorphic shapes specifications: args[1].shape = (b, 16). Obtained dimension variables: 'b' = {0} from specification 'b' for dimension args[1].shape[0] (= {0}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
    %2 = stablehlo.convert %0 : tensor<i32>
    %3 = stablehlo.multiply %2, %c_1 : tensor<i32>
    %4 = stablehlo.add %3, %c_0 : tensor<i32>
    %5 = stablehlo.compare GE, %4, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %6 = stablehlo.convert %0 : tensor<i32>
    %7 = stablehlo.multiply %6, %c_1 : tensor<i32>
    %8 = stablehlo.add %7, %c_0 : tensor<i32>
    stablehlo.custom_call @shape_assertion(%5, %8, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the symbolic shape constraint b <= 32. Expected '- b + 32' to be greater or equal to 0, but found {0}.  Using the following polymorphic shapes specifications: args[1].shape = (b, 16). Obtained dimension variables: 'b' = {1} from specification 'b' for dimension args[1].shape[0] (= {1}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>, tensor<i32>) -> ()
    %9 = call @_wrapped_jax_export_main(%0, %arg0, %arg1, %arg2, %arg3, %arg4, %arg5, %arg6) : (tensor<i32>, tensor<32xf32>, tensor<16x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<8xf32>, tensor<32x8xf32>, tensor<?x16xf32>) -> tensor<?x8xf32>
    return %9 : tensor<?x8xf32>
  }
  func.func private @_wrapped_jax_export_main(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<32xf32>, %arg2: tensor<16x32xf32>, %arg3: tensor<32xf32>, %arg4: tensor<32x32xf32>, %arg5: tensor<8xf32>, %arg6: tensor<32x8xf32>, %arg7: tensor<?x16xf32>) -> (tensor<?x8xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<8> : tensor<1xi32>
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_1 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %cst_2 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %c_3 = stablehlo.constant dense<32> : tensor<1xi32>
    %0 = stablehlo.dot_general %arg7, %arg2, contracting_dims = [1] x [0] : (tensor<?x16xf32>, tensor<16x32xf32>) -> tensor<?x32xf32>
    %1 = stablehlo.reshape %arg1 : (tensor<32xf32>) -> tensor<1x32xf32>
    %2 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %3 = stablehlo.concatenate %2, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %4 = stablehlo.dynamic_broadcast_in_dim %1, %3, dims = [0, 1] : (tensor<1x32xf32>, tensor<2xi32>) -> tensor<?x32xf32>
    %5 = stablehlo.add %0, %4 : tensor<?x32xf32>
    %6 = stablehlo.multiply %5, %5 : tensor<?x32xf32>
    %7 = stablehlo.multiply %6, %5 : tensor<?x32xf32>
    %8 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %9 = stablehlo.concatenate %8, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %10 = stablehlo.dynamic_broadcast_in_dim %cst_2, %9, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x32xf32>
    %11 = stablehlo.multiply %10, %7 : tensor<?x32xf32>
    %12 = stablehlo.add %5, %11 : tensor<?x32xf32>
    %13 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %14 = stablehlo.concatenate %13, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %15 = stablehlo.dynamic_broadcast_in_dim %cst_1, %14, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x32xf32>
    %16 = stablehlo.multiply %15, %12 : tensor<?x32xf32>
    %17 = stablehlo.tanh %16 : tensor<?x32xf32>
    %18 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %19 = stablehlo.concatenate %18, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %20 = stablehlo.dynamic_broadcast_in_dim %cst_0, %19, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x32xf32>
    %21 = stablehlo.add %20, %17 : tensor<?x32xf32>
    %22 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %23 = stablehlo.concatenate %22, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %24 = stablehlo.dynamic_broadcast_in_dim %cst, %23, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x32xf32>
    %25 = stablehlo.multiply %24, %21 : tensor<?x32xf32>
    %26 = stablehlo.multiply %5, %25 : tensor<?x32xf32>
    %27 = stablehlo.dot_general %26, %arg4, contracting_dims = [1] x [0] : (tensor<?x32xf32>, tensor<32x32xf32>) -> tensor<?x32xf32>
    %28 = stablehlo.reshape %arg3 : (tensor<32xf32>) -> tensor<1x32xf32>
    %29 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %30 = stablehlo.concatenate %29, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %31 = stablehlo.dynamic_broadcast_in_dim %28, %30, dims = [0, 1] : (tensor<1x32xf32>, tensor<2xi32>) -> tensor<?x32xf32>
    %32 = stablehlo.add %27, %31 : tensor<?x32xf32>
    %33 = stablehlo.multiply %32, %32 : tensor<?x32xf32>
    %34 = stablehlo.multiply %33, %32 : tensor<?x32xf32>
    %35 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %36 = stablehlo.concatenate %35, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %37 = stablehlo.dynamic_broadcast_in_dim %cst_2, %36, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x32xf32>
    %38 = stablehlo.multiply %37, %34 : tensor<?x32xf32>
    %39 = stablehlo.add %32, %38 : tensor<?x32xf32>
    %40 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %41 = stablehlo.concatenate %40, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %42 = stablehlo.dynamic_broadcast_in_dim %cst_1, %41, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x32xf32>
    %43 = stablehlo.multiply %42, %39 : tensor<?x32xf32>
    %44 = stablehlo.tanh %43 : tensor<?x32xf32>
    %45 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %46 = stablehlo.concatenate %45, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %47 = stablehlo.dynamic_broadcast_in_dim %cst_0, %46, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x32xf32>
    %48 = stablehlo.add %47, %44 : tensor<?x32xf32>
    %49 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %50 = stablehlo.concatenate %49, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %51 = stablehlo.dynamic_broadcast_in_dim %cst, %50, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x32xf32>
    %52 = stablehlo.multiply %51, %48 : tensor<?x32xf32>
    %53 = stablehlo.multiply %32, %52 : tensor<?x32xf32>
    %54 = stablehlo.dot_general %53, %arg6, contracting_dims = [1] x [0] : (tensor<?x32xf32>, tensor<32x8xf32>) -> tensor<?x8xf32>
    %55 = stablehlo.reshape %arg5 : (tensor<8xf32>) -> tensor<1x8xf32>
    %56 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %57 = stablehlo.concatenate %56, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %58 = stablehlo.dynamic_broadcast_in_dim %55, %57, dims = [0, 1] : (tensor<1x8xf32>, tensor<2xi32>) -> tensor<?x8xf32>
    %59 = stablehlo.add %54, %58 : tensor<?x8xf32>
    return %59 : tensor<?x8xf32>
  }
}
